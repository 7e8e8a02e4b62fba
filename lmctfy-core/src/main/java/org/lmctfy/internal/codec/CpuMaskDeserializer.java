package org.lmctfy.internal.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code cpu.mask} in either form: the kernel's list {@code "0-3,6"}, or lmctfy's bitmask
 * message {@code mask { data: 5 data: 0 }} ({@code {"data": [5, 0]}} in JSON), which it converts
 * to the list form.
 */
public final class CpuMaskDeserializer extends StdDeserializer<String> {
  private static final long serialVersionUID = 1L;
  private static final String FIELD = "cpu.mask";

  public CpuMaskDeserializer() {
    super(String.class);
  }

  @Override
  public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
    JsonNode node = ctxt.readTree(p);
    if (node.isTextual()) {
      return node.textValue();
    }
    if (!node.isObject()) {
      throw Checks.invalid(FIELD, node, "must be a CPU list such as \"0-3,6\" or { data: ... }");
    }
    List<BigInteger> words = new ArrayList<>();
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      if (!field.getKey().equals("data")) {
        throw Checks.problem(FIELD + "." + field.getKey(), "unknown field; known fields: data");
      }
      JsonNode data = field.getValue();
      if (data.isArray()) {
        data.forEach(word -> words.add(word(word, words.size())));
      } else {
        words.add(word(data, 0));
      }
    }
    return CpuLists.fromBitmask(words, FIELD + ".data");
  }

  private static BigInteger word(JsonNode word, int index) {
    if (!word.isIntegralNumber()) {
      throw Checks.invalid(FIELD + ".data[" + index + "]", word, "must be an unsigned 64-bit word");
    }
    return word.bigIntegerValue();
  }
}
