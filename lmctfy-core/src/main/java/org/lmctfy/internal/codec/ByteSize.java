package org.lmctfy.internal.codec;

import java.math.BigInteger;

/**
 * Sizes in bytes as people write them: {@code 256M}, {@code 1G}, {@code 512Ki}. The suffixes are
 * binary, as systemd's {@code MemoryMax=} and Docker's {@code --memory} read them: {@code K} or
 * {@code Ki} is 1024, {@code M}/{@code Mi} 1024², {@code G}/{@code Gi} 1024³, {@code T}/{@code Ti}
 * 1024⁴, {@code P}/{@code Pi} 1024⁵. A size is a whole number of bytes with at most one suffix;
 * {@code -1} (unlimited) takes none. The text format writes them unquoted ({@code limit: 256M}),
 * JSON as strings ({@code "limit": "256M"}); only the byte fields of a spec (marked
 * {@code @Inputs.ByteSize} in {@code org.lmctfy.spec}) take them, and specs print bytes, which read
 * back the same.
 */
public final class ByteSize {
  private static final String SUFFIXES = "KMGTP";

  private ByteSize() {}

  /** An unquoted size in the text format ({@code 256M}): a tree value only byte fields take. */
  record Literal(String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /** The length of the suffix at {@code at} in {@code s} ({@code K} 1, {@code Ki} 2), or 0. */
  static int suffixLength(CharSequence s, int at) {
    if (at >= s.length() || SUFFIXES.indexOf(s.charAt(at)) < 0) {
      return 0;
    }
    return at + 1 < s.length() && s.charAt(at + 1) == 'i' ? 2 : 1;
  }

  /**
   * The bytes {@code text} names ({@code "256M"}, {@code "4096"}, {@code "-1"}).
   *
   * @throws org.lmctfy.LmctfyException INVALID_ARGUMENT naming {@code path} and the value
   */
  static long parse(String text, String path) {
    int end = text.length();
    while (end > 0 && !Character.isDigit(text.charAt(end - 1))) {
      end--;
    }
    String digits = text.substring(0, end);
    String suffix = text.substring(end);
    int power = suffix.isEmpty() ? 0 : SUFFIXES.indexOf(suffix.charAt(0)) + 1;
    boolean wellFormed =
        !digits.isEmpty()
            && (suffix.isEmpty() || (suffixLength(suffix, 0) == suffix.length()))
            && digits.chars().skip(digits.charAt(0) == '-' ? 1 : 0).allMatch(Character::isDigit)
            && digits.length() > (digits.charAt(0) == '-' ? 1 : 0);
    if (!wellFormed || (digits.startsWith("-") && (power > 0 || !digits.equals("-1")))) {
      throw ParseErrors.problem(
          path,
          "invalid size "
              + ParseErrors.describe(text)
              + ": expected bytes as a whole number"
              + " with an optional binary suffix (K or Ki = 1024, M or Mi, G or Gi, T or Ti, P or Pi), such as 256M,"
              + " or -1 for unlimited");
    }
    BigInteger bytes = new BigInteger(digits).shiftLeft(10 * power);
    if (bytes.bitLength() >= 64) {
      throw ParseErrors.problem(
          path,
          "invalid size "
              + ParseErrors.describe(text)
              + ": more than "
              + Long.MAX_VALUE
              + " bytes");
    }
    return bytes.longValue();
  }

  /**
   * The bytes a tree value names for a byte field: an integer as it is, a string or an unquoted
   * size parsed; null when {@code node} is neither (the binder reports the mismatch).
   */
  static Long read(Object node, String path) {
    if (node instanceof String || node instanceof Literal) {
      return parse(node.toString(), path);
    }
    return null;
  }
}
