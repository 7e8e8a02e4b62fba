package org.lmctfy.internal.codec;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lmctfy.internal.codec.TextFormatLexer.Kind;
import org.lmctfy.internal.codec.TextFormatLexer.Token;

/**
 * Parses lmctfy's protobuf text format into a tree of plain values (see {@link TreeBinder}), which
 * the codec then binds like JSON.
 *
 * <p>Grammar: a message is a sequence of fields, optionally separated by {@code ,} or {@code ;}. A
 * field is {@code name: value}, {@code name { message }} or {@code name: { message }} ({@code < >}
 * may replace the braces). A value is a string, a signed integer, a float, an identifier ({@code
 * true}/{@code false} become booleans, other identifiers such as enum constants become strings), a
 * message, or a list {@code [v, v]}. A repeated field becomes a JSON array. As an extension a field
 * name may be quoted, for map keys that are not identifiers.
 */
final class TextFormatParser {
  /**
   * Deeper than any spec nests (a few levels): a text nested more is refused, not recursed into.
   */
  static final int MAX_DEPTH = 64;

  private final List<Token> tokens;
  private int next;
  private int depth;

  private TextFormatParser(List<Token> tokens) {
    this.tokens = tokens;
  }

  /** The tree of {@code text}; an empty or blank text is an empty object. */
  static Map<String, Object> parse(String text) {
    TextFormatParser parser = new TextFormatParser(TextFormatLexer.tokenize(text));
    return parser.message("", null);
  }

  private Token peek() {
    return tokens.get(next);
  }

  private Token take() {
    return tokens.get(next++);
  }

  /** Fields until {@code close} (or EOF when {@code close} is null). */
  private Map<String, Object> message(String path, String close) {
    if (++depth > MAX_DEPTH) {
      throw error(path, peek(), "nested more than " + MAX_DEPTH + " messages deep");
    }
    Map<String, Object> node = new LinkedHashMap<>();
    while (true) {
      Token t = peek();
      if (close == null ? t.kind() == Kind.EOF : t.is(close)) {
        take();
        depth--;
        return node;
      }
      if (t.kind() == Kind.EOF) {
        throw error(path, t, "expected a field name or '" + close + "', got end of input");
      }
      if (t.kind() != Kind.IDENT && t.kind() != Kind.STRING) {
        throw error(path, t, "expected a field name, got " + t.show());
      }
      take();
      String name = (String) t.value();
      String fieldPath = path.isEmpty() ? name : path + "." + name;
      add(node, name, field(fieldPath));
      if (peek().is(",") || peek().is(";")) {
        take();
      }
    }
  }

  private Object field(String path) {
    Token t = peek();
    if (t.is(":")) {
      take();
      return value(path, true);
    }
    if (t.is("{") || t.is("<")) {
      return value(path, false);
    }
    throw error(path, t, "expected ':' or '{' after the field name, got " + t.show());
  }

  private Object value(String path, boolean listAllowed) {
    Token t = take();
    switch (t.kind()) {
      case STRING -> {
        StringBuilder s = new StringBuilder((String) t.value());
        while (peek().kind() == Kind.STRING && !startsField(next)) {
          s.append((String) take().value());
        }
        return s.toString();
      }
      case INTEGER -> {
        BigInteger v = (BigInteger) t.value();
        return v.bitLength() < 64 ? (Object) v.longValue() : v;
      }
      case FLOAT -> {
        return t.value();
      }
      case SIZE -> {
        return new ByteSize.Literal((String) t.value());
      }
      case IDENT -> {
        String word = (String) t.value();
        if (word.equals("true") || word.equals("True")) {
          return Boolean.TRUE;
        }
        if (word.equals("false") || word.equals("False")) {
          return Boolean.FALSE;
        }
        return word;
      }
      case PUNCT -> {
        if (t.is("{")) {
          return message(path, "}");
        }
        if (t.is("<")) {
          return message(path, ">");
        }
        if (t.is("[") && listAllowed) {
          return list(path);
        }
        throw error(path, t, "expected a value, got " + t.show());
      }
      default -> throw error(path, t, "expected a value, got " + t.show());
    }
  }

  /** Whether the string token at {@code index} is a quoted field name rather than a value. */
  private boolean startsField(int index) {
    Token after = tokens.get(index + 1);
    return after.is(":") || after.is("{") || after.is("<");
  }

  private List<Object> list(String path) {
    List<Object> list = new ArrayList<>();
    if (peek().is("]")) {
      take();
      return list;
    }
    while (true) {
      list.add(value(path + "[" + list.size() + "]", false));
      Token t = take();
      if (t.is("]")) {
        return list;
      }
      if (!t.is(",")) {
        throw error(path, t, "expected ',' or ']' in a list, got " + t.show());
      }
    }
  }

  /** A field given again is repeated: its values collect into a list, in order. */
  @SuppressWarnings("unchecked")
  private static void add(Map<String, Object> node, String name, Object value) {
    Object old = node.get(name);
    if (old == null) {
      node.put(name, value);
      return;
    }
    List<Object> all;
    if (old instanceof List<?>) {
      all = (List<Object>) old;
    } else {
      all = new ArrayList<>();
      all.add(old);
      node.put(name, all);
    }
    if (value instanceof List<?> values) {
      all.addAll(values);
    } else {
      all.add(value);
    }
  }

  private static RuntimeException error(String path, Token t, String problem) {
    return TextFormatLexer.syntaxError(path, t.line(), t.column(), problem);
  }
}
