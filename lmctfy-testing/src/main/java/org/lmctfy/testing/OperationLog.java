package org.lmctfy.testing;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.testing.FakeOperation.Kind;

/**
 * The mutation record of a FakeCgroupFs: an append-only list of operations, kept as columns in
 * fixed chunks rather than as one {@link FakeOperation} each. A long test run records millions and
 * keeps them all, so what one costs the heap (and every garbage collection that copies it) matters:
 * a column entry is a byte and four references to the operation's own strings and path, against an
 * object and its slot. FakeOperations are made when {@link #toList} is asked for. Not thread-safe.
 */
final class OperationLog {
  /** Entries per chunk: growing never copies what is already recorded. */
  private static final int CHUNK = 4096;

  private static final Kind[] KINDS = Kind.values();

  private static final class Chunk {
    final byte[] kinds = new byte[CHUNK];
    final String[] hierarchies = new String[CHUNK];
    final CgroupPath[] paths = new CgroupPath[CHUNK];
    final String[] files = new String[CHUNK];
    final String[] values = new String[CHUNK];

    /** Allocated when an operation of the chunk fails. */
    Errno[] failures;
  }

  private final List<Chunk> chunks = new ArrayList<>();

  /** The last of {@link #chunks}, which {@link #add} fills. */
  private Chunk last;

  private int size;

  void add(
      Kind kind, String hierarchy, CgroupPath path, String file, String value, Errno failedWith) {
    int at = size % CHUNK;
    if (at == 0) {
      last = new Chunk();
      chunks.add(last);
    }
    Chunk c = last;
    c.kinds[at] = (byte) kind.ordinal();
    c.hierarchies[at] = hierarchy;
    c.paths[at] = path;
    c.files[at] = file;
    c.values[at] = value;
    if (failedWith != null) {
      if (c.failures == null) {
        c.failures = new Errno[CHUNK];
      }
      c.failures[at] = failedWith;
    }
    size++;
  }

  int size() {
    return size;
  }

  void clear() {
    chunks.clear();
    last = null;
    size = 0;
  }

  /** Every operation recorded, in order; immutable. */
  List<FakeOperation> toList() {
    FakeOperation[] out = new FakeOperation[size];
    for (int i = 0; i < size; i++) {
      Chunk c = chunks.get(i / CHUNK);
      int at = i % CHUNK;
      out[i] =
          new FakeOperation(
              KINDS[c.kinds[at]],
              c.hierarchies[at],
              c.paths[at],
              c.files[at],
              c.values[at],
              c.failures == null ? null : c.failures[at]);
    }
    return List.of(out);
  }
}
