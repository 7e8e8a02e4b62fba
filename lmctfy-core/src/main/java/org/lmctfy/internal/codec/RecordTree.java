package org.lmctfy.internal.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;
import org.lmctfy.internal.codec.RecordShape.Component;

/**
 * Turns a spec record into the Jackson tree that {@link TextFormatWriter} and {@link Json} write:
 * components in declaration order under their field names, null values left out and, where a
 * component says {@code @JsonInclude(NON_EMPTY)}, empty lists and maps too; enums by name, lists
 * as arrays, maps as objects in their own order. Stateless and thread-safe.
 */
final class RecordTree {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private RecordTree() {}

  /** The tree of {@code record}. */
  static ObjectNode of(Object record) {
    ObjectNode node = NODES.objectNode();
    for (Component c : RecordShape.of(record.getClass()).components()) {
      Object value = RecordShape.read(c, record);
      if (value != null && !(c.nonEmpty() && isEmpty(value))) {
        node.set(c.name(), node(value));
      }
    }
    return node;
  }

  private static boolean isEmpty(Object value) {
    return value instanceof Collection<?> c ? c.isEmpty()
        : value instanceof Map<?, ?> m ? m.isEmpty()
        : value instanceof String s && s.isEmpty();
  }

  private static JsonNode node(Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof String s) {
      return NODES.textNode(s);
    }
    if (value instanceof Long l) {
      return NODES.numberNode(l);
    }
    if (value instanceof Integer i) {
      return NODES.numberNode(i);
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof BigInteger b) {
      return NODES.numberNode(b);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof Enum<?> e) {
      return NODES.textNode(e.name());
    }
    if (value instanceof Collection<?> list) {
      ArrayNode array = NODES.arrayNode();
      for (Object element : list) {
        array.add(node(element));
      }
      return array;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = NODES.objectNode();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (e.getValue() != null) {
          object.set(String.valueOf(e.getKey()), node(e.getValue()));
        }
      }
      return object;
    }
    if (value.getClass().isRecord()) {
      return of(value);
    }
    throw new IllegalStateException("the codec cannot write a " + value.getClass().getName());
  }
}
