package org.lmctfy.internal.codec;

import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * The codec's parse errors: an {@link LmctfyException} with {@link ErrorCode#INVALID_ARGUMENT}
 * whose message starts with the field's dotted path, then the bad value and the rule, the form of
 * the spec records' own validation (their package-private {@code Checks}, kept alike by {@code
 * ChecksTest}: the records do not import the codec).
 */
final class ParseErrors {
  private ParseErrors() {}

  /** A failure naming {@code field}, the bad {@code value} and the {@code rule} it broke. */
  static LmctfyException invalid(String field, Object value, String rule) {
    return new LmctfyException(
        ErrorCode.INVALID_ARGUMENT, field + ": invalid value " + describe(value) + ": " + rule);
  }

  /** A failure naming {@code field} and a problem that is not about one value. */
  static LmctfyException problem(String field, String problem) {
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, field + ": " + problem);
  }

  /** How a value appears in a message: strings quoted and escaped, the rest as they print. */
  static String describe(Object value) {
    if (value instanceof CharSequence) {
      return TextFormatWriter.quote(value.toString());
    }
    return String.valueOf(value);
  }
}
