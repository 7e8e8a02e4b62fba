package org.lmctfy.testing.internal.fake;

import java.util.BitSet;
import org.lmctfy.cgroupfs.Errno;

/** Kernel cpu/node lists ("0-3,5", "0-7:2/4") to bit sets and back. */
final class CpuList {
  private CpuList() {}

  /**
   * bitmap_parselist(): items "a", "a-b" or "a-b:used/group", comma separated, surrounding
   * whitespace ignored, empty means none. "1-0" and garbage are EINVAL; a bit at or above {@code
   * limit} is {@code tooBig} (ERANGE for cpus, EINVAL for mems, both checked).
   */
  static BitSet parse(String value, int limit, Errno tooBig) {
    String s = Numbers.strip(value);
    BitSet out = new BitSet();
    if (s.isEmpty()) {
      return out;
    }
    for (String item : s.split(",", -1)) {
      int colon = item.indexOf(':');
      String range = colon < 0 ? item : item.substring(0, colon);
      int dash = range.indexOf('-');
      int from = number(dash < 0 ? range : range.substring(0, dash));
      int to = dash < 0 ? from : number(range.substring(dash + 1));
      int used = 1;
      int group = 1;
      if (colon >= 0) {
        String[] ug = item.substring(colon + 1).split("/", -1);
        if (ug.length != 2) {
          throw KernelError.of(Errno.EINVAL);
        }
        used = number(ug[0]);
        group = number(ug[1]);
        if (used == 0 || group == 0 || used > group) {
          throw KernelError.of(Errno.EINVAL);
        }
      }
      if (from > to) {
        throw KernelError.of(Errno.EINVAL);
      }
      if (to >= limit) {
        throw KernelError.of(tooBig);
      }
      for (int i = from; i <= to; i++) {
        if ((i - from) % group < used) {
          out.set(i);
        }
      }
    }
    return out;
  }

  private static int number(String s) {
    if (s.isEmpty() || s.length() > 9) {
      throw KernelError.of(Errno.EINVAL);
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        throw KernelError.of(Errno.EINVAL);
      }
    }
    return Integer.parseInt(s);
  }

  /** How the kernel prints a list: "0-1,3\n", or "\n" when empty. */
  static String format(BitSet bits) {
    StringBuilder sb = new StringBuilder();
    int i = bits.nextSetBit(0);
    while (i >= 0) {
      int end = bits.nextClearBit(i) - 1;
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(i);
      if (end > i) {
        sb.append('-').append(end);
      }
      i = bits.nextSetBit(end + 1);
    }
    return sb.append('\n').toString();
  }

  /** Parses a list this class printed (no validation). */
  static BitSet read(String printed) {
    return parse(printed, Integer.MAX_VALUE, Errno.EINVAL);
  }
}
