package org.lmctfy.spec;

import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * Validation helpers for the records' compact constructors. Every failure is an {@link
 * LmctfyException} with {@link ErrorCode#INVALID_ARGUMENT} whose message starts with the field's
 * dotted path, then the bad value and the rule: {@code "cpu.limit: invalid value -5: must be >=
 * 0"}.
 *
 * <p>Fields inside list elements are named with empty brackets ({@code "device.rules[].access"});
 * the codec fills in the index when it knows it. The codec's own parse errors have the same form
 * ({@code internal.codec.ParseErrors}), and a bad string is shown as the text format writes it; the
 * records do not import the codec, so the two are kept alike by {@code ChecksTest}.
 */
final class Checks {
  private Checks() {}

  /** A failure naming {@code field}, the bad {@code value} and the {@code rule} it broke. */
  static LmctfyException invalid(String field, Object value, String rule) {
    return new LmctfyException(
        ErrorCode.INVALID_ARGUMENT, field + ": invalid value " + describe(value) + ": " + rule);
  }

  /** A failure naming {@code field} and a problem that is not about one value. */
  static LmctfyException problem(String field, String problem) {
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, field + ": " + problem);
  }

  /** {@code value} itself; fails when it is null. */
  static <T> T required(T value, String field) {
    if (value == null) {
      throw problem(field, "required");
    }
    return value;
  }

  /** {@code value} (may be null); fails when it is below {@code min}. */
  static Long atLeast(Long value, long min, String field) {
    if (value != null && value < min) {
      throw invalid(field, value, "must be >= " + min);
    }
    return value;
  }

  /** {@code value} (may be null); fails unless it is -1 (unlimited) or at least {@code min}. */
  static Long unlimitedOrAtLeast(Long value, long min, String field) {
    if (value != null && value != -1 && value < min) {
      throw invalid(field, value, "must be -1 (unlimited) or >= " + min);
    }
    return value;
  }

  /** {@code value} (may be null); fails unless it lies in {@code [min, max]}. */
  static Integer inRange(Integer value, int min, int max, String field) {
    if (value != null && (value < min || value > max)) {
      throw invalid(field, value, "must be in " + min + ".." + max);
    }
    return value;
  }

  /** {@code value} (may be null); fails when it is empty or holds a NUL character. */
  static String nonEmpty(String value, String field) {
    if (value != null && (value.isEmpty() || value.indexOf('\0') >= 0)) {
      throw invalid(field, value, "must be non-empty and free of NUL characters");
    }
    return value;
  }

  /**
   * How a value appears in a message: a string as a text-format literal (in double quotes, with
   * {@code \"}, {@code \\}, {@code \n}, {@code \t}, {@code \r} and {@code \xNN} for the other
   * control characters), the rest as they print.
   */
  static String describe(Object value) {
    if (!(value instanceof CharSequence)) {
      return String.valueOf(value);
    }
    String s = value.toString();
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    s.chars()
        .forEach(
            c -> {
              int escape = "\"\\\n\t\r".indexOf(c);
              if (escape >= 0) {
                out.append('\\').append("\"\\ntr".charAt(escape));
              } else if (c < 0x20 || c == 0x7f) {
                out.append("\\x")
                    .append(Character.forDigit(c >> 4, 16))
                    .append(Character.forDigit(c & 15, 16));
              } else {
                out.append((char) c);
              }
            });
    return out.append('"').toString();
  }
}
