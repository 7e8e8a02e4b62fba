package org.lmctfy.internal.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON in and out of the codec's trees of plain values (see {@link TreeBinder}). Reading goes
 * through Jackson's {@code readTree} (strict: duplicate keys, trailing tokens and leading zeros
 * fail; failures as {@link JacksonErrors} words them); writing uses jackson-core's generator, so it
 * needs no {@link ObjectMapper} and writes what the mapper wrote (same escapes and number forms,
 * {@code NaN} as a string). The mapper and the factory are each made on first use, configured once
 * and never changed afterwards: thread-safe. The text format needs neither.
 */
final class Json {
  private Json() {}

  private static final class Reader {
    static final ObjectMapper MAPPER =
        JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
            .build();
  }

  private static final class Writer {
    static final JsonFactory FACTORY = new JsonFactory();
  }

  /** The tree of the JSON {@code text}, whose top level must be an object. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> read(String text) {
    try {
      return (Map<String, Object>) plain(Reader.MAPPER.readTree(text));
    } catch (JsonProcessingException e) {
      throw JacksonErrors.translate(e);
    }
  }

  private static Object plain(JsonNode node) {
    switch (node.getNodeType()) {
      case OBJECT -> {
        Map<String, Object> object = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
          object.put(field.getKey(), plain(field.getValue()));
        }
        return object;
      }
      case ARRAY -> {
        List<Object> list = new ArrayList<>();
        for (JsonNode element : node) {
          list.add(plain(element));
        }
        return list;
      }
      case STRING -> {
        return node.textValue();
      }
      case BOOLEAN -> {
        return node.booleanValue();
      }
      case NUMBER -> {
        if (!node.isIntegralNumber()) {
          return node.doubleValue();
        }
        return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
      }
      default -> {
        return null;
      }
    }
  }

  /**
   * {@code value}, a tree, as compact JSON; also how a value appears in a message ({@code [1,2]}).
   */
  static String write(Object value) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = Writer.FACTORY.createGenerator(out)) {
      write(value, g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void write(Object value, JsonGenerator g) throws IOException {
    if (value instanceof Map<?, ?> object) {
      g.writeStartObject();
      for (Map.Entry<?, ?> field : object.entrySet()) {
        g.writeFieldName((String) field.getKey());
        write(field.getValue(), g);
      }
      g.writeEndObject();
    } else if (value instanceof List<?> list) {
      g.writeStartArray();
      for (Object element : list) {
        write(element, g);
      }
      g.writeEndArray();
    } else if (value instanceof String s) {
      g.writeString(s);
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Integer i) {
      g.writeNumber(i);
    } else if (value instanceof Long l) {
      g.writeNumber(l);
    } else if (value instanceof BigInteger b) {
      g.writeNumber(b);
    } else if (value instanceof Double d) {
      g.writeNumber(d);
    } else if (value == null) {
      g.writeNull();
    } else {
      throw new IllegalArgumentException("not a tree value: " + value.getClass().getName());
    }
  }
}
