package org.lmctfy.internal.codec;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code cpu.mask} in either form: the kernel's list {@code "0-3,6"}, or lmctfy's bitmask
 * message {@code mask { data: 5 data: 0 }} ({@code {"data": [5, 0]}} in JSON), which it converts to
 * the list form. Stateless and thread-safe.
 */
public final class CpuMask {
  private static final String FIELD = "cpu.mask";

  private CpuMask() {}

  /** The mask that the tree value {@code node} (not a JSON null) gives, in either form. */
  static String read(Object node) {
    if (node instanceof String list) {
      return list;
    }
    if (!(node instanceof Map<?, ?> message)) {
      throw ParseErrors.problem(
          FIELD,
          "invalid value "
              + Json.write(node)
              + ": must be a CPU list such as \"0-3,6\" or { data: ... }");
    }
    List<BigInteger> words = new ArrayList<>();
    for (Map.Entry<?, ?> field : message.entrySet()) {
      if (!field.getKey().equals("data")) {
        throw ParseErrors.problem(
            FIELD + "." + field.getKey(), "unknown field; known fields: data");
      }
      Object data = field.getValue();
      if (data instanceof List<?> list) {
        for (Object word : list) {
          words.add(word(word, words.size()));
        }
      } else {
        words.add(word(data, 0));
      }
    }
    return CpuLists.fromBitmask(words, FIELD + ".data");
  }

  private static BigInteger word(Object word, int index) {
    if (word instanceof Long l) {
      return BigInteger.valueOf(l);
    }
    if (!(word instanceof BigInteger)) {
      throw ParseErrors.problem(
          FIELD + ".data[" + index + "]",
          "invalid value " + Json.write(word) + ": must be an unsigned 64-bit word");
    }
    return (BigInteger) word;
  }
}
