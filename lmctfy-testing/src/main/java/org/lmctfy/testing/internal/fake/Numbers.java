package org.lmctfy.testing.internal.fake;

import org.lmctfy.cgroupfs.Errno;

/** The kernel's number parsers, with the same edge cases. All throw KernelError. */
final class Numbers {
  static final long PAGE_SIZE = 4096;

  /** PAGE_COUNTER_MAX in bytes: what v1 prints for "unlimited" (checked: 9223372036854771712). */
  static final long PAGE_COUNTER_MAX = Long.MAX_VALUE / PAGE_SIZE * PAGE_SIZE;

  private Numbers() {}

  /** strstrip(): drops leading and trailing ASCII whitespace. */
  static String strip(String s) {
    int b = 0;
    int e = s.length();
    while (b < e && isSpace(s.charAt(b))) {
      b++;
    }
    while (e > b && isSpace(s.charAt(e - 1))) {
      e--;
    }
    return s.substring(b, e);
  }

  static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
  }

  /**
   * kstrtoull(s, 0): optional '+', base from the prefix (0x hex, 0 octal), one trailing newline at
   * most, nothing else; EINVAL for garbage, ERANGE on overflow. Used by every v1 "u64" file, so
   * {@code " 5000 "} is EINVAL there (checked on cpu.cfs_quota_us).
   */
  static long kstrtoull(String s) {
    String t = s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    if (t.startsWith("+")) {
      t = t.substring(1);
    }
    return digits(t);
  }

  /** kstrtoll(s, 0): like {@link #kstrtoull} with an optional '-'; ERANGE outside s64. */
  static long kstrtoll(String s) {
    String t = s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    boolean negative = t.startsWith("-");
    if (negative || t.startsWith("+")) {
      t = t.substring(1);
    }
    long magnitude = digits(t);
    if (negative ? Long.compareUnsigned(magnitude, Long.MIN_VALUE) > 0 : magnitude < 0) {
      throw KernelError.of(Errno.ERANGE);
    }
    return negative ? -magnitude : magnitude;
  }

  /** An int as kstrtoint(strstrip(s)) reads it; EINVAL for garbage, ERANGE outside int. */
  static int kstrtoint(String s) {
    long v = kstrtoll(strip(s));
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw KernelError.of(Errno.ERANGE);
    }
    return (int) v;
  }

  /**
   * The unsigned 64-bit value of digits with an optional 0x/0 prefix; EINVAL for garbage, ERANGE
   * past 2^64-1.
   */
  private static long digits(String t) {
    int radix = 10;
    int from = 0;
    if (t.length() > 2 && (t.startsWith("0x") || t.startsWith("0X"))) {
      radix = 16;
      from = 2;
    } else if (t.length() > 1 && t.startsWith("0")) {
      radix = 8;
      from = 1;
    }
    if (from == t.length()) {
      throw KernelError.of(Errno.EINVAL);
    }
    for (int i = from; i < t.length(); i++) {
      if (Character.digit(t.charAt(i), radix) < 0) {
        throw KernelError.of(Errno.EINVAL);
      }
    }
    long max = Long.divideUnsigned(-1L, radix);
    long v = 0;
    for (int i = from; i < t.length(); i++) {
      if (Long.compareUnsigned(v, max) > 0) {
        throw KernelError.of(Errno.ERANGE);
      }
      long shifted = v * radix;
      v = shifted + Character.digit(t.charAt(i), radix);
      if (Long.compareUnsigned(v, shifted) < 0) {
        throw KernelError.of(Errno.ERANGE);
      }
    }
    return v;
  }

  /**
   * memparse() on an already stripped string that must be used up: digits (base from the prefix,
   * wrapping modulo 2^64 as simple_strtoull does; checked: 99999999999999999999 reads back
   * 7766279631452237824) and an optional K/M/G/T/P/E suffix. No sign: "-2" is EINVAL.
   */
  static long memparse(String s) {
    int radix = 10;
    int i = 0;
    if (s.length() > 2
        && s.charAt(0) == '0'
        && (s.charAt(1) == 'x' || s.charAt(1) == 'X')
        && Character.digit(s.charAt(2), 16) >= 0) {
      radix = 16;
      i = 2;
    } else if (s.startsWith("0")) {
      radix = 8;
    }
    long v = 0; // long arithmetic wraps modulo 2^64, as simple_strtoull does
    while (i < s.length() && Character.digit(s.charAt(i), radix) >= 0) {
      v = v * radix + Character.digit(s.charAt(i), radix);
      i++;
    }
    if (i < s.length()) {
      int shift =
          switch (s.charAt(i)) {
            case 'k', 'K' -> 10;
            case 'm', 'M' -> 20;
            case 'g', 'G' -> 30;
            case 't', 'T' -> 40;
            case 'p', 'P' -> 50;
            case 'e', 'E' -> 60;
            default -> -1;
          };
      if (shift < 0 || i + 1 != s.length()) {
        throw KernelError.of(Errno.EINVAL);
      }
      v <<= shift;
    }
    return v;
  }

  /** Bytes (unsigned) to what a page counter stores and prints: rounded down, capped at max. */
  static long pageRound(long bytes) {
    if (Long.compareUnsigned(bytes, PAGE_COUNTER_MAX) >= 0) {
      return PAGE_COUNTER_MAX;
    }
    return bytes / PAGE_SIZE * PAGE_SIZE;
  }

  /** A v2 limit: "max" or bytes (memparse), page-rounded; returns PAGE_COUNTER_MAX for max. */
  static long maxOrBytes(String value) {
    String s = strip(value);
    return s.equals("max") ? PAGE_COUNTER_MAX : pageRound(memparse(s));
  }

  /** How v2 prints a limit. */
  static String printMax(long bytes) {
    return bytes == PAGE_COUNTER_MAX ? "max\n" : bytes + "\n";
  }

  /** Parses a stored decimal, the form every file here keeps its value in. */
  static long stored(String content) {
    return Long.parseLong(strip(content));
  }
}
