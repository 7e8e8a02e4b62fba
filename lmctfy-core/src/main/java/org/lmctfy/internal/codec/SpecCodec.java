package org.lmctfy.internal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * Reads and writes the spec records as JSON and as lmctfy's protobuf text format.
 *
 * <p>Both input forms become a Jackson tree (JSON through the {@link ObjectMapper}'s {@code
 * readTree}, the text format through {@link TextFormatParser}) and bind through {@link
 * TreeBinder}, so validation (unknown fields, types, the records' constructors) has one path.
 * Writing turns a record into a tree ({@link RecordTree}) and writes that as text ({@link
 * TextFormatWriter}) or JSON ({@link Json}). Only reading JSON needs the mapper; it is made on
 * first use, configured once and never changed afterwards, so it is safely shared by all threads,
 * and the text format never builds it. Text that starts with <code>{</code> is JSON; anything
 * else is text format. Every failure is an {@link LmctfyException} with {@link
 * ErrorCode#INVALID_ARGUMENT}.
 */
public final class SpecCodec {
  private SpecCodec() {}

  /** The mapper, built on first use: only JSON input needs it. */
  private static final class Mapper {
    static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        .disable(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS)
        .build();
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
        tree = Mapper.MAPPER.readTree(text);
      } catch (JsonProcessingException e) {
        throw JacksonErrors.translate(e);
      }
    } else {
      tree = TextFormatParser.parse(text);
    }
    return TreeBinder.bind(tree, type);
  }

  /** {@code value} as compact JSON with lmctfy's field names; absent sections are left out. */
  public static String toJson(Object value) {
    return Json.write(RecordTree.of(value));
  }

  /** {@code value} in lmctfy's text format, fields in declaration order, one a line. */
  public static String toText(Object value) {
    return TextFormatWriter.write(RecordTree.of(value));
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
