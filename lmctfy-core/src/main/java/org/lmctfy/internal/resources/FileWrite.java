package org.lmctfy.internal.resources;

import org.lmctfy.cgroupfs.Hierarchy;

/**
 * One interface-file write of a plan, with the spec field it comes from (for messages).
 *
 * @param absent why a kernel may lack the file (an optional one: {@code memory.zswap.max}), said
 *     when the write finds no such file; null for a file every kernel with the controller has
 */
public record FileWrite(Hierarchy hierarchy, String file, String value, String field, String absent) {

  /** A write of a file every kernel with the controller has. */
  public FileWrite(Hierarchy hierarchy, String file, String value, String field) {
    this(hierarchy, file, value, field, null);
  }
}
