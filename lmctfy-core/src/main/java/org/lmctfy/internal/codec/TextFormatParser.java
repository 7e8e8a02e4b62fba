package org.lmctfy.internal.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.List;
import org.lmctfy.internal.codec.TextFormatLexer.Kind;
import org.lmctfy.internal.codec.TextFormatLexer.Token;

/**
 * Parses lmctfy's protobuf text format into a Jackson tree, which the codec then binds like JSON.
 *
 * <p>Grammar: a message is a sequence of fields, optionally separated by {@code ,} or {@code ;}. A
 * field is {@code name: value}, {@code name { message }} or {@code name: { message }} ({@code < >}
 * may replace the braces). A value is a string, a signed integer, a float, an identifier
 * ({@code true}/{@code false} become booleans, other identifiers such as enum constants become
 * strings), a message, or a list {@code [v, v]}. A repeated field becomes a JSON array. As an
 * extension a field name may be quoted, for map keys that are not identifiers.
 */
final class TextFormatParser {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Deeper than any spec nests (a few levels): a text nested more is refused, not recursed into. */
  static final int MAX_DEPTH = 64;

  private final List<Token> tokens;
  private int next;
  private int depth;

  private TextFormatParser(List<Token> tokens) {
    this.tokens = tokens;
  }

  /** The tree of {@code text}; an empty or blank text is an empty object. */
  static ObjectNode parse(String text) {
    TextFormatParser parser = new TextFormatParser(TextFormatLexer.tokenize(text));
    ObjectNode root = parser.message("", null);
    return root;
  }

  private Token peek() {
    return tokens.get(next);
  }

  private Token take() {
    return tokens.get(next++);
  }

  /** Fields until {@code close} (or EOF when {@code close} is null). */
  private ObjectNode message(String path, String close) {
    if (++depth > MAX_DEPTH) {
      throw error(path, peek(), "nested more than " + MAX_DEPTH + " messages deep");
    }
    ObjectNode node = NODES.objectNode();
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

  private JsonNode field(String path) {
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

  private JsonNode value(String path, boolean listAllowed) {
    Token t = take();
    switch (t.kind()) {
      case STRING -> {
        StringBuilder s = new StringBuilder((String) t.value());
        while (peek().kind() == Kind.STRING && !startsField(next)) {
          s.append((String) take().value());
        }
        return NODES.textNode(s.toString());
      }
      case INTEGER -> {
        BigInteger v = (BigInteger) t.value();
        return v.bitLength() < 64 ? NODES.numberNode(v.longValue()) : NODES.numberNode(v);
      }
      case FLOAT -> {
        return NODES.numberNode((Double) t.value());
      }
      case IDENT -> {
        String word = (String) t.value();
        if (word.equals("true") || word.equals("True")) {
          return NODES.booleanNode(true);
        }
        if (word.equals("false") || word.equals("False")) {
          return NODES.booleanNode(false);
        }
        return NODES.textNode(word);
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

  private ArrayNode list(String path) {
    ArrayNode list = NODES.arrayNode();
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

  /** A field given again is repeated: its values collect into an array, in order. */
  private static void add(ObjectNode node, String name, JsonNode value) {
    JsonNode old = node.get(name);
    if (old == null) {
      node.set(name, value);
      return;
    }
    ArrayNode all;
    if (old.isArray()) {
      all = (ArrayNode) old;
    } else {
      all = NODES.arrayNode().add(old);
      node.set(name, all);
    }
    if (value.isArray()) {
      all.addAll((ArrayNode) value);
    } else {
      all.add(value);
    }
  }

  private static RuntimeException error(String path, Token t, String problem) {
    return TextFormatLexer.syntaxError(path, t.line(), t.column(), problem);
  }
}
