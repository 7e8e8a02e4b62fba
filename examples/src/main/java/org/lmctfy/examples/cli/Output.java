package org.lmctfy.examples.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What one command prints: lmctfy's {@code OutputMap}, an ordered list of key/value lines, or one
 * raw document (a spec, stats), printed in the chosen {@link Style}.
 *
 * <p>Styles, as lmctfy printed them: {@code PAIRS} {@code key="C-escaped value"} per line; {@code
 * VALUES} the raw value per line; {@code LONG} the key right-aligned in 20 columns, {@code " | "},
 * the value, then a blank line. A raw document prints verbatim in those three. {@code JSON} prints
 * one object: a key given once maps to its value, a {@linkplain #addAll listed} key to an array (so
 * an empty or one-element list is still an array); a raw document prints as its own JSON.
 *
 * <p>Not thread-safe: one per command.
 */
final class Output {
  /** lmctfy's output styles, and JSON. */
  enum Style {
    PAIRS,
    VALUES,
    LONG,
    JSON
  }

  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9][-A-Za-z0-9_.]*");

  private record Entry(String key, Object value, boolean listed) {}

  private final List<Entry> entries = new ArrayList<>();
  private final List<String> listedKeys = new ArrayList<>();
  private String rawText;
  private String rawJson;

  /** Adds one {@code key: value} line. */
  Output add(String key, Object value) {
    entries.add(new Entry(checkKey(key), value, false));
    return this;
  }

  /**
   * Adds one line per value under {@code key}; in JSON, an array (empty when {@code values} is).
   */
  Output addAll(String key, List<?> values) {
    listedKeys.add(checkKey(key));
    for (Object v : values) {
      entries.add(new Entry(key, v, true));
    }
    return this;
  }

  /** Sets a document printed verbatim ({@code text}), or as {@code json} in the JSON style. */
  Output raw(String text, String json) {
    this.rawText = text;
    this.rawJson = json;
    return this;
  }

  private static String checkKey(String key) {
    if (!KEY.matcher(key).matches()) {
      throw new IllegalArgumentException("output key must match " + KEY + ": " + key);
    }
    return key;
  }

  /** Prints everything added in {@code style}; prints nothing if nothing was added. */
  void print(PrintStream out, Style style) {
    if (style == Style.JSON) {
      printJson(out);
      return;
    }
    if (rawText != null) {
      out.print(rawText.endsWith("\n") || rawText.isEmpty() ? rawText : rawText + "\n");
    }
    for (Entry e : entries) {
      String value = String.valueOf(e.value());
      switch (style) {
        case PAIRS -> out.println(e.key() + "=\"" + cEscape(value) + "\"");
        case VALUES -> out.println(value);
        case LONG -> out.printf("%20s | %s%n%n", e.key(), value);
        default -> throw new IllegalStateException("unhandled style " + style);
      }
    }
    out.flush();
  }

  @SuppressWarnings("unchecked") // the lists are the ones made above
  private void printJson(PrintStream out) {
    if (rawJson != null) {
      out.println(rawJson);
    }
    if (entries.isEmpty() && listedKeys.isEmpty()) {
      out.flush();
      return;
    }
    Map<String, Object> root = new LinkedHashMap<>();
    for (String key : listedKeys) {
      root.put(key, new ArrayList<>());
    }
    for (Entry e : entries) {
      if (e.listed()) {
        ((List<Object>) root.get(e.key())).add(e.value());
      } else {
        root.put(e.key(), e.value());
      }
    }
    StringBuilder b = new StringBuilder("{");
    for (Map.Entry<String, Object> e : root.entrySet()) {
      b.append(b.length() > 1 ? "," : "");
      jsonString(b, e.getKey());
      b.append(':');
      if (e.getValue() instanceof List<?> list) {
        b.append('[');
        for (int i = 0; i < list.size(); i++) {
          b.append(i > 0 ? "," : "");
          jsonValue(b, list.get(i));
        }
        b.append(']');
      } else {
        jsonValue(b, e.getValue());
      }
    }
    out.println(b.append('}'));
    out.flush();
  }

  /** A number as itself, anything else as the JSON string of its text. */
  private static void jsonValue(StringBuilder b, Object value) {
    if (value instanceof Long || value instanceof Integer) {
      b.append(value);
    } else {
      jsonString(b, String.valueOf(value));
    }
  }

  private static void jsonString(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }

  /**
   * C escaping as lmctfy's {@code CEscape}: quotes, backslash, \n \r \t, other controls as octal.
   */
  static String cEscape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\'' -> b.append("\\'");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            b.append(String.format("\\%03o", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }
}
