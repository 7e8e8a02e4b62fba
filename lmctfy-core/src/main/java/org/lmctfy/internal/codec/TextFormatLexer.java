package org.lmctfy.internal.codec;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * Splits protobuf text format into tokens: identifiers, strings ({@code "..."} or {@code '...'}
 * with C escapes), integers (decimal or {@code 0x} hex, signed), floats, punctuation and {@code #}
 * comments (skipped). Each token knows its line and column, both counted from 1.
 */
final class TextFormatLexer {
  enum Kind {
    IDENT,
    STRING,
    INTEGER,
    FLOAT,
    SIZE,
    PUNCT,
    EOF
  }

  /** One token; {@code value} is a String, BigInteger or Double as the kind says. */
  record Token(Kind kind, Object value, String text, int line, int column) {
    boolean is(String punct) {
      return kind == Kind.PUNCT && text.equals(punct);
    }

    /** How a message shows this token. */
    String show() {
      return kind == Kind.EOF ? "end of input" : "'" + text + "'";
    }
  }

  private final String in;
  private int pos;
  private int line = 1;
  private int lineStart;

  private TextFormatLexer(String in) {
    this.in = in;
  }

  /** All tokens of {@code in}, ending with one EOF token. */
  static List<Token> tokenize(String in) {
    TextFormatLexer lexer = new TextFormatLexer(in);
    List<Token> tokens = new ArrayList<>();
    Token t;
    do {
      t = lexer.next();
      tokens.add(t);
    } while (t.kind() != Kind.EOF);
    return tokens;
  }

  /** A syntax failure at {@code line:column}, naming {@code path} when there is one. */
  static LmctfyException syntaxError(String path, int line, int column, String problem) {
    String where = "syntax error at " + line + ":" + column + ": " + problem;
    return new LmctfyException(
        ErrorCode.INVALID_ARGUMENT, path.isEmpty() ? where : path + ": " + where);
  }

  private Token next() {
    skipSpaceAndComments();
    int start = pos;
    int col = pos - lineStart + 1;
    if (pos >= in.length()) {
      return new Token(Kind.EOF, null, "", line, col);
    }
    char c = in.charAt(pos);
    if (Character.isLetter(c) || c == '_') {
      while (pos < in.length() && isIdentPart(in.charAt(pos))) {
        pos++;
      }
      String word = in.substring(start, pos);
      return new Token(Kind.IDENT, word, word, line, col);
    }
    if (Character.isDigit(c)
        || ((c == '-' || c == '+')
            && pos + 1 < in.length()
            && (Character.isDigit(in.charAt(pos + 1)) || in.charAt(pos + 1) == '.'))) {
      return number(col);
    }
    if (c == '"' || c == '\'') {
      return string(c, col);
    }
    if ("{}[]:,;<>".indexOf(c) >= 0) {
      pos++;
      return new Token(Kind.PUNCT, null, String.valueOf(c), line, col);
    }
    throw syntaxError("", line, col, "unexpected character '" + c + "'");
  }

  private void skipSpaceAndComments() {
    while (pos < in.length()) {
      char c = in.charAt(pos);
      if (c == '\n') {
        pos++;
        line++;
        lineStart = pos;
      } else if (Character.isWhitespace(c)) {
        pos++;
      } else if (c == '#') {
        while (pos < in.length() && in.charAt(pos) != '\n') {
          pos++;
        }
      } else {
        return;
      }
    }
  }

  private static boolean isIdentPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  private Token number(int col) {
    int start = pos;
    boolean negative = in.charAt(pos) == '-';
    if (in.charAt(pos) == '-' || in.charAt(pos) == '+') {
      pos++;
    }
    int digits = pos;
    if (in.startsWith("0x", pos) || in.startsWith("0X", pos)) {
      pos += 2;
      while (pos < in.length() && Character.digit(in.charAt(pos), 16) >= 0) {
        pos++;
      }
      String hex = in.substring(digits + 2, pos);
      checkEnd(start, col);
      if (hex.isEmpty()) {
        throw syntaxError("", line, col, "malformed number '" + in.substring(start, pos) + "'");
      }
      BigInteger value = new BigInteger(hex, 16);
      return new Token(
          Kind.INTEGER, negative ? value.negate() : value, in.substring(start, pos), line, col);
    }
    boolean isFloat = false;
    while (pos < in.length()) {
      char c = in.charAt(pos);
      if (Character.isDigit(c)) {
        pos++;
      } else if (c == '.' || c == 'e' || c == 'E') {
        isFloat = true;
        pos++;
        if ((c == 'e' || c == 'E')
            && pos < in.length()
            && (in.charAt(pos) == '-' || in.charAt(pos) == '+')) {
          pos++;
        }
      } else {
        break;
      }
    }
    if (isFloat && pos < in.length() && (in.charAt(pos) == 'f' || in.charAt(pos) == 'F')) {
      pos++;
    }
    int suffix = isFloat || pos == digits ? 0 : ByteSize.suffixLength(in, pos);
    if (suffix > 0) { // a size, such as 256M: only byte fields take it
      pos += suffix;
      checkEnd(start, col);
      String text = in.substring(start, pos);
      return new Token(Kind.SIZE, text.startsWith("+") ? text.substring(1) : text, text, line, col);
    }
    checkEnd(start, col);
    String text = in.substring(start, pos);
    String digitsText = text.startsWith("+") ? text.substring(1) : text;
    try {
      if (isFloat) {
        return new Token(Kind.FLOAT, Double.valueOf(digitsText), text, line, col);
      }
      return new Token(Kind.INTEGER, new BigInteger(digitsText), text, line, col);
    } catch (NumberFormatException e) {
      LmctfyException error = syntaxError("", line, col, "malformed number '" + text + "'");
      error.addSuppressed(e);
      throw error;
    }
  }

  /** A number must not run into letters: {@code 2MB} is not a number. */
  private void checkEnd(int start, int col) {
    if (pos < in.length() && (isIdentPart(in.charAt(pos)) || in.charAt(pos) == '.')) {
      int end = pos;
      while (end < in.length() && (isIdentPart(in.charAt(end)) || in.charAt(end) == '.')) {
        end++;
      }
      throw syntaxError(
          "",
          line,
          col,
          "malformed number '"
              + in.substring(start, end)
              + "' (a size is a whole"
              + " number with one binary suffix: K, M, G, T, P or Ki, Mi, Gi, Ti, Pi, such as 256M)");
    }
  }

  private Token string(char quote, int col) {
    int start = pos;
    pos++;
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= in.length() || in.charAt(pos) == '\n') {
        throw syntaxError("", line, col, "unterminated string");
      }
      char c = in.charAt(pos++);
      if (c == quote) {
        return new Token(Kind.STRING, out.toString(), in.substring(start, pos), line, col);
      }
      if (c == '\\') {
        escape(out, col);
      } else {
        out.append(c);
      }
    }
  }

  private void escape(StringBuilder out, int col) {
    if (pos >= in.length()) {
      throw syntaxError("", line, col, "unterminated string");
    }
    char c = in.charAt(pos++);
    switch (c) {
      case 'n' -> out.append('\n');
      case 't' -> out.append('\t');
      case 'r' -> out.append('\r');
      case 'a' -> out.append('\u0007');
      case 'b' -> out.append('\b');
      case 'f' -> out.append('\f');
      case 'v' -> out.append('\u000b');
      case '\\', '\'', '"', '?' -> out.append(c);
      case 'x' -> out.append((char) digits(16, 1, 2, col));
      case 'u' -> out.append((char) digits(16, 4, 4, col));
      default -> {
        if (c >= '0' && c <= '7') {
          pos--;
          out.append((char) digits(8, 1, 3, col));
        } else {
          throw syntaxError(
              "", line, pos - lineStart - 1, "unknown escape '\\" + c + "' in string");
        }
      }
    }
  }

  private int digits(int radix, int min, int max, int col) {
    int start = pos;
    while (pos < in.length() && pos - start < max && Character.digit(in.charAt(pos), radix) >= 0) {
      pos++;
    }
    if (pos - start < min) {
      throw syntaxError("", line, col, "malformed escape in string");
    }
    return Integer.parseInt(in.substring(start, pos), radix);
  }
}
