package org.lmctfy.testing;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import org.lmctfy.cgroupfs.Errno;

/** The record of mutations, the pending faults and the crash point of one FakeCgroupFs. Not thread-safe. */
final class Recorder {
  /** A fault for the mutation numbered {@code at}, or (at == 0) for the next one {@code matcher} accepts. */
  private record Fault(long at, Predicate<FakeOperation> matcher, Errno errno) {}

  /**
   * The record, in chunks of {@link #CHUNK}: it only grows, often to millions in a long test run,
   * and one big array would be copied whole at every growth.
   */
  private static final int CHUNK = 4096;

  private final List<FakeOperation[]> record = new ArrayList<>();
  private int recorded;
  private final List<Fault> faults = new ArrayList<>();
  /** Mutations attempted since creation; faults and crashes count from it. */
  private long attempts;
  private long crashAt;
  private boolean crashed;

  /** Throws FakeCrash if the process is dead. */
  void checkAlive() {
    if (crashed) {
      throw new FakeCrash("the fake process crashed (crashAt); call recover()");
    }
  }

  /**
   * Counts a mutation about to happen: throws FakeCrash if it is the crash point, and returns the
   * errno it must fail with if a fault is due, else null.
   */
  Errno beforeMutation(FakeOperation op) {
    checkAlive();
    attempts++;
    if (attempts == crashAt) {
      crashed = true;
      throw new FakeCrash("the fake process crashed at " + op.kind() + " " + op.hierarchy() + ":" + op.path()
          + (op.file() == null ? "" : "/" + op.file()));
    }
    Errno due = null;
    for (Iterator<Fault> it = faults.iterator(); it.hasNext(); ) {
      Fault f = it.next();
      boolean matches = f.at() == 0 ? f.matcher().test(op) : f.at() == attempts;
      if (matches && due == null) {
        due = f.errno();
        it.remove();
      } else if (f.at() != 0 && f.at() <= attempts) {
        it.remove();
      }
    }
    return due;
  }

  void record(FakeOperation op) {
    int at = recorded % CHUNK;
    if (at == 0) {
      record.add(new FakeOperation[CHUNK]);
    }
    record.get(record.size() - 1)[at] = op;
    recorded++;
  }

  void failMutation(int n, Errno errno) {
    if (n < 1) {
      throw new IllegalArgumentException("n counts from 1: " + n);
    }
    faults.add(new Fault(attempts + n, null, errno));
  }

  void failWhen(Predicate<FakeOperation> matcher, Errno errno) {
    faults.add(new Fault(0, matcher, errno));
  }

  void crashAt(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n counts from 1: " + n);
    }
    crashAt = attempts + n;
  }

  void recover() {
    crashed = false;
    crashAt = 0;
    faults.clear();
  }

  boolean crashed() {
    return crashed;
  }

  List<FakeOperation> mutations() {
    FakeOperation[] all = new FakeOperation[recorded];
    for (int c = 0; c < record.size(); c++) {
      System.arraycopy(record.get(c), 0, all, c * CHUNK, Math.min(CHUNK, recorded - c * CHUNK));
    }
    return List.of(all);
  }

  int mutationCount() {
    return recorded;
  }

  void clearRecord() {
    record.clear();
    recorded = 0;
  }
}
