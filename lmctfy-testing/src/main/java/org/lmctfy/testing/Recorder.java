package org.lmctfy.testing;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.testing.FakeOperation.Kind;

/**
 * The record of mutations, the pending faults and the crash point of one FakeCgroupFs. Not
 * thread-safe.
 */
final class Recorder {
  /**
   * A fault for the mutation numbered {@code at}, or (at == 0) for the next one {@code matcher}
   * accepts.
   */
  private record Fault(long at, Predicate<FakeOperation> matcher, Errno errno) {}

  private final OperationLog record = new OperationLog();
  // The mutation in progress, between begin and end: not an object, as there are millions.
  private Kind kind;
  private String hierarchy;
  private CgroupPath path;
  private String file;
  private String value;
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
   * Counts a mutation about to happen and makes it the one in progress: throws FakeCrash if it is
   * the crash point, and returns the errno it must fail with if a fault is due, else null.
   */
  Errno begin(Kind kind, String hierarchy, CgroupPath path, String file, String value) {
    checkAlive();
    attempts++;
    this.kind = kind;
    this.hierarchy = hierarchy;
    this.path = path;
    this.file = file;
    this.value = value;
    if (attempts == crashAt) {
      crashed = true;
      throw new FakeCrash(
          "the fake process crashed at "
              + kind
              + " "
              + hierarchy
              + ":"
              + path
              + (file == null ? "" : "/" + file));
    }
    if (faults.isEmpty()) {
      return null;
    }
    FakeOperation op = new FakeOperation(kind, hierarchy, path, file, value, null);
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

  /** Records the mutation in progress, as failed with {@code errno}, or as done if it is null. */
  void end(Errno errno) {
    record.add(kind, hierarchy, path, file, value, errno);
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
    return record.toList();
  }

  int mutationCount() {
    return record.size();
  }

  void clearRecord() {
    record.clear();
  }
}
