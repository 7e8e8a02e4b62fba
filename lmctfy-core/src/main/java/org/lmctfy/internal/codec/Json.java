package org.lmctfy.internal.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes a Jackson tree as compact JSON with jackson-core's generator, so that writing needs no
 * {@code ObjectMapper}; the output is what the mapper writes (same escapes and number forms,
 * {@code NaN} as a string). The factory is configured once and never changed: thread-safe.
 */
final class Json {
  private Json() {}

  /** Made on first use: parsing the text format never writes JSON. */
  private static final class Holder {
    static final JsonFactory FACTORY = new JsonFactory();
  }

  /** {@code node} as compact JSON; also how a node appears in a message ({@code [1,2]}). */
  static String write(JsonNode node) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = Holder.FACTORY.createGenerator(out)) {
      write(node, g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void write(JsonNode node, JsonGenerator g) throws IOException {
    switch (node.getNodeType()) {
      case OBJECT -> {
        g.writeStartObject();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
          g.writeFieldName(field.getKey());
          write(field.getValue(), g);
        }
        g.writeEndObject();
      }
      case ARRAY -> {
        g.writeStartArray();
        for (JsonNode element : node) {
          write(element, g);
        }
        g.writeEndArray();
      }
      case STRING -> g.writeString(node.textValue());
      case BOOLEAN -> g.writeBoolean(node.booleanValue());
      case NUMBER -> {
        switch (node.numberType()) {
          case INT -> g.writeNumber(node.intValue());
          case LONG -> g.writeNumber(node.longValue());
          case BIG_INTEGER -> g.writeNumber(node.bigIntegerValue());
          case FLOAT -> g.writeNumber(node.floatValue());
          case DOUBLE -> g.writeNumber(node.doubleValue());
          default -> g.writeNumber(node.decimalValue());
        }
      }
      default -> g.writeNull();
    }
  }
}
