package org.lmctfy.internal.codec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * Reads and writes the spec records as JSON and as lmctfy's protobuf text format.
 *
 * <p>Owns the one {@link ObjectMapper}; it is configured once here and never changed afterwards,
 * so it is safely shared by all threads. Both input forms become a Jackson tree (JSON through the
 * mapper, the text format through {@link TextFormatParser}) and bind through the mapper, so
 * validation (unknown fields, types, the records' constructors) has one path. Text that starts with <code>{</code> is
 * JSON; anything else is text format. Every failure is an {@link LmctfyException} with {@link
 * ErrorCode#INVALID_ARGUMENT}; see {@link JacksonErrors}.
 */
public final class SpecCodec {
  private static final ObjectMapper MAPPER = newMapper();

  private SpecCodec() {}

  private static ObjectMapper newMapper() {
    ObjectMapper mapper = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        .disable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
        .defaultPropertyInclusion(JsonInclude.Value.construct(
            JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
        .build();
    mapper.coercionConfigFor(LogicalType.Integer)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Boolean)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.String, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    mapper.coercionConfigFor(LogicalType.Enum)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    return mapper;
  }

  /**
   * Parses {@code text} (JSON or text format) into a {@code type}; blank text binds an empty
   * object. {@code what} names the input in messages ("spec", "run spec").
   */
  public static <T> T parse(String text, Class<T> type, String what) {
    if (text == null) {
      throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, what + ": text is null");
    }
    JsonNode tree;
    if (isJson(text)) {
      try {
        tree = MAPPER.readTree(text);
      } catch (JsonProcessingException e) {
        throw JacksonErrors.translate(e);
      }
    } else {
      tree = TextFormatParser.parse(text);
    }
    return bind(tree, type);
  }

  /** Binds a tree, read from JSON or from the text format, into a {@code type}. */
  private static <T> T bind(JsonNode tree, Class<T> type) {
    UnknownFields.check(tree, type, "");
    try {
      return MAPPER.treeToValue(tree, type);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw JacksonErrors.translate(e);
    }
  }

  /** {@code value} as compact JSON with lmctfy's field names; absent sections are left out. */
  public static String toJson(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new LmctfyException(ErrorCode.INTERNAL, "cannot write " + value + " as JSON", e);
    }
  }

  /** {@code value} in lmctfy's text format, fields in declaration order, one a line. */
  public static String toText(Object value) {
    return TextFormatWriter.write(MAPPER.valueToTree(value));
  }

  private static boolean isJson(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isWhitespace(c)) {
        return c == '{';
      }
    }
    return false;
  }
}
