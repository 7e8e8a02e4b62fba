package org.lmctfy.internal.resources;

import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.internal.codec.FlatKeyed;

/** Unit conversions between spec values and interface-file text, shared by the handlers. */
final class Units {
  static final long PAGE = 4096;

  /** What a v1 "unlimited" (-1) reads back as: the largest page-aligned signed value. */
  static final long V1_UNLIMITED = Long.MAX_VALUE / PAGE * PAGE;

  private Units() {}

  /** Bytes as the kernel stores them: rounded down to a page; -1 stays unlimited. */
  static long pages(long bytes) {
    return bytes < 0 ? -1 : bytes / PAGE * PAGE;
  }

  /** A v1 byte value to write. */
  static String v1Bytes(long bytes) {
    return bytes < 0 ? "-1" : Long.toString(bytes);
  }

  /** A v2 byte value to write ({@code max} for unlimited). */
  static String v2Bytes(long bytes) {
    return bytes < 0 ? "max" : Long.toString(bytes);
  }

  /** Reads a v1 or v2 byte value back: unlimited is -1. */
  static long bytes(String text, String file) {
    if (text.equals("max")) {
      return -1;
    }
    long v = number(text, file);
    return v >= V1_UNLIMITED ? -1 : v;
  }

  static long number(String text, String file) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw new LmctfyException(
          ErrorCode.INTERNAL, "unexpected content \"" + text + "\" in " + file, e);
    }
  }

  /** The {@code key value} line of a flat-keyed file such as memory.oom_control. */
  static long keyed(String text, String key, String file) {
    Long value = FlatKeyed.parse(text, file).get(key);
    if (value != null) {
      return value;
    }
    throw new LmctfyException(
        ErrorCode.INTERNAL, "no \"" + key + "\" in " + file + ": \"" + text + "\"");
  }

  static LmctfyException invalid(String field, Object value, String why) {
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, field + " " + value + " " + why);
  }
}
