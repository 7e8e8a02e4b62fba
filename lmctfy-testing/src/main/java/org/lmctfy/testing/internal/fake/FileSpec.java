package org.lmctfy.testing.internal.fake;

/**
 * One interface file: its name, whether it can be read and written, where it exists and the content
 * a new cgroup starts with (null when the controller computes it on every read).
 */
record FileSpec(String name, Access access, Where where, String initial) {

  /** Read-write, read-only (mode 444) or write-only (mode 200). */
  enum Access {
    RW,
    RO,
    WO
  }

  /** Whether the file is in every cgroup, only in the hierarchy's root, or only below it. */
  enum Where {
    ALL,
    ROOT,
    CHILD
  }

  static FileSpec rw(String name, String initial) {
    return new FileSpec(name, Access.RW, Where.ALL, initial);
  }

  static FileSpec ro(String name, String initial) {
    return new FileSpec(name, Access.RO, Where.ALL, initial);
  }

  static FileSpec wo(String name) {
    return new FileSpec(name, Access.WO, Where.ALL, null);
  }

  FileSpec rootOnly() {
    return new FileSpec(name, access, Where.ROOT, initial);
  }

  FileSpec childOnly() {
    return new FileSpec(name, access, Where.CHILD, initial);
  }

  boolean existsIn(boolean root) {
    return where == Where.ALL || (where == Where.ROOT) == root;
  }
}
