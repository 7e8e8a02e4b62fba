package org.lmctfy.internal.resources;

import org.lmctfy.cgroupfs.Hierarchy;

/**
 * One interface-file write of a plan, with the spec field it comes from (for messages).
 *
 * @param absent why a kernel may lack the file (an optional one: {@code memory.zswap.max}), said
 *     when the write finds no such file; null for a file every kernel with the controller has
 * @param check what the file must show after the write, checked by reading it back
 */
public record FileWrite(
    Hierarchy hierarchy, String file, String value, String field, String absent, Check check) {

  /** What a write's file must show after it. */
  public enum Check {
    /** Nothing is checked. */
    NONE,
    /** The value as written (a unified file: so that spec() reads back what was given). */
    SHOWS_VALUE,
    /** No "invalid (reason)" after the value (a cpuset partition the kernel could not make). */
    VALID
  }

  /** A write of a file every kernel with the controller has. */
  public FileWrite(Hierarchy hierarchy, String file, String value, String field) {
    this(hierarchy, file, value, field, null, Check.NONE);
  }

  /** A write of an optional file, which a kernel may lack for the reason {@code absent}. */
  public FileWrite(Hierarchy hierarchy, String file, String value, String field, String absent) {
    this(hierarchy, file, value, field, absent, Check.NONE);
  }
}
