package org.lmctfy.internal.codec;

import java.util.List;
import java.util.Map;

/**
 * Writes a tree of plain values (from {@link RecordTree}) as lmctfy's protobuf text format: one
 * field a line, messages as {@code name {...}} indented by two spaces, repeated fields by
 * repetition, in the tree's order (the records' component order), so the output is deterministic.
 * Upper-case identifiers such as enum constants are written bare; every other string is quoted with
 * C escapes.
 */
final class TextFormatWriter {
  private TextFormatWriter() {}

  /** The text of the fields of {@code message}; empty when it has none. */
  static String write(Map<String, Object> message) {
    StringBuilder out = new StringBuilder();
    fields(message, "", out);
    return out.toString();
  }

  private static void fields(Map<?, ?> message, String indent, StringBuilder out) {
    for (Map.Entry<?, ?> field : message.entrySet()) {
      String key = (String) field.getKey();
      String name = isIdentifier(key) ? key : quote(key);
      if (field.getValue() instanceof List<?> elements) {
        for (Object element : elements) {
          field(name, element, indent, out);
        }
      } else {
        field(name, field.getValue(), indent, out);
      }
    }
  }

  private static void field(String name, Object value, String indent, StringBuilder out) {
    if (value == null) {
      return;
    }
    out.append(indent).append(name);
    if (value instanceof Map<?, ?> message) {
      if (message.isEmpty()) {
        out.append(" {}\n");
        return;
      }
      out.append(" {\n");
      fields(message, indent + "  ", out);
      out.append(indent).append("}\n");
    } else if (value instanceof String s) {
      out.append(": ").append(isBareWord(s) ? s : quote(s)).append('\n');
    } else {
      out.append(": ").append(value).append('\n');
    }
  }

  /** Whether {@code s} is an identifier, {@code [A-Za-z_][A-Za-z0-9_]*}. */
  private static boolean isIdentifier(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
      if (!letter && (i == 0 || c < '0' || c > '9')) {
        return false;
      }
    }
    return !s.isEmpty();
  }

  /** Whether {@code s} is written bare: an enum constant, {@code [A-Z][A-Z0-9_]*}. */
  private static boolean isBareWord(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(c >= 'A' && c <= 'Z') && (i == 0 || !(c == '_' || (c >= '0' && c <= '9')))) {
        return false;
      }
    }
    return !s.isEmpty();
  }

  /** {@code s} in double quotes with C escapes, readable by the text format lexer. */
  static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format("\\x%02x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
