package org.lmctfy.internal.codec;

import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * Validation helpers for the spec records' compact constructors. Every failure is an {@link
 * LmctfyException} with {@link ErrorCode#INVALID_ARGUMENT} whose message starts with the field's
 * dotted path, then the bad value and the rule: {@code "cpu.limit: invalid value -5: must be >=
 * 0"}.
 *
 * <p>Fields inside list elements are named with empty brackets ({@code "device.rules[].access"});
 * the codec fills in the index when it knows it.
 */
public final class Checks {
  private Checks() {}

  /** A failure naming {@code field}, the bad {@code value} and the {@code rule} it broke. */
  public static LmctfyException invalid(String field, Object value, String rule) {
    return new LmctfyException(
        ErrorCode.INVALID_ARGUMENT, field + ": invalid value " + describe(value) + ": " + rule);
  }

  /** Whether {@code s} holds only ASCII letters, digits and characters of {@code others}. */
  public static boolean lettersDigitsOr(String s, String others) {
    return s.chars()
        .allMatch(
            c ->
                c >= 'a' && c <= 'z'
                    || c >= 'A' && c <= 'Z'
                    || c >= '0' && c <= '9'
                    || others.indexOf(c) >= 0);
  }

  /** A failure naming {@code field} and a problem that is not about one value. */
  public static LmctfyException problem(String field, String problem) {
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, field + ": " + problem);
  }

  /** {@code value} itself; fails when it is null. */
  public static <T> T required(T value, String field) {
    if (value == null) {
      throw problem(field, "required");
    }
    return value;
  }

  /** {@code value} (may be null); fails when it is below {@code min}. */
  public static Long atLeast(Long value, long min, String field) {
    if (value != null && value < min) {
      throw invalid(field, value, "must be >= " + min);
    }
    return value;
  }

  /** {@code value} (may be null); fails unless it is -1 (unlimited) or at least {@code min}. */
  public static Long unlimitedOrAtLeast(Long value, long min, String field) {
    if (value != null && value != -1 && value < min) {
      throw invalid(field, value, "must be -1 (unlimited) or >= " + min);
    }
    return value;
  }

  /** {@code value} (may be null); fails unless it lies in {@code [min, max]}. */
  public static Integer inRange(Integer value, int min, int max, String field) {
    if (value != null && (value < min || value > max)) {
      throw invalid(field, value, "must be in " + min + ".." + max);
    }
    return value;
  }

  /** {@code value} (may be null); fails when it is empty or holds a NUL character. */
  public static String nonEmpty(String value, String field) {
    if (value != null && (value.isEmpty() || value.indexOf('\0') >= 0)) {
      throw invalid(field, value, "must be non-empty and free of NUL characters");
    }
    return value;
  }

  /** How a value appears in a message: strings quoted and escaped, the rest as they print. */
  public static String describe(Object value) {
    if (value instanceof CharSequence) {
      return TextFormatWriter.quote(value.toString());
    }
    return String.valueOf(value);
  }
}
