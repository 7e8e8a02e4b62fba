package org.lmctfy.internal.codec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lmctfy.internal.codec.RecordShape.Component;

/**
 * Turns a spec record into the tree of plain values that {@link TextFormatWriter} and {@link Json}
 * write: a record becomes a {@code Map} of its components in declaration order under their field
 * names, null values left out and, where a component says {@code @JsonInclude(NON_EMPTY)}, empty
 * lists and maps too; enums become their names, collections lists, maps maps in their own order;
 * strings, numbers and booleans stay as they are. Stateless and thread-safe.
 */
final class RecordTree {
  private RecordTree() {}

  /** The tree of {@code record}. */
  static Map<String, Object> of(Object record) {
    Map<String, Object> node = new LinkedHashMap<>();
    for (Component c : RecordShape.of(record.getClass()).components()) {
      Object value = RecordShape.read(c, record);
      if (value != null && !(c.nonEmpty() && isEmpty(value))) {
        node.put(c.name(), value(value));
      }
    }
    return node;
  }

  private static boolean isEmpty(Object value) {
    return value instanceof Collection<?> c
        ? c.isEmpty()
        : value instanceof Map<?, ?> m ? m.isEmpty() : value instanceof String s && s.isEmpty();
  }

  private static Object value(Object value) {
    if (value instanceof Enum<?> e) {
      return e.name();
    }
    if (value instanceof Collection<?> elements) {
      List<Object> list = new ArrayList<>();
      for (Object element : elements) {
        list.add(element == null ? null : value(element));
      }
      return list;
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> object = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (e.getValue() != null) {
          object.put(String.valueOf(e.getKey()), value(e.getValue()));
        }
      }
      return object;
    }
    return value.getClass().isRecord() ? of(value) : value;
  }
}
