package org.lmctfy.internal.codec;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Rejects unknown field names in a tree before it is bound. Jackson reports an unknown property
 * only after the record's constructor ran, so a misspelt required field ({@code permision}) would
 * otherwise surface as "permission: required"; this check names the misspelt field instead.
 * Jackson's own {@code FAIL_ON_UNKNOWN_PROPERTIES} stays on as the backstop.
 */
final class UnknownFields {
  private UnknownFields() {}

  /** Fails on the first field of {@code node} (at {@code path}) that {@code type} lacks. */
  static void check(JsonNode node, Class<?> type, String path) {
    if (!type.isRecord() || !node.isObject()) {
      return;
    }
    Map<String, RecordComponent> known = new LinkedHashMap<>();
    for (RecordComponent c : type.getRecordComponents()) {
      JsonProperty name = c.getAccessor().getAnnotation(JsonProperty.class);
      known.put(name == null ? c.getName() : name.value(), c);
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
      RecordComponent component = known.get(field.getKey());
      if (component == null) {
        throw Checks.problem(fieldPath,
            "unknown field; known fields: " + String.join(", ", new TreeSet<>(known.keySet())));
      }
      checkValue(field.getValue(), component.getGenericType(), fieldPath);
    }
  }

  private static void checkValue(JsonNode value, Type type, String path) {
    if (type instanceof Class<?> c) {
      check(value, c, path);
    } else if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw
        && Collection.class.isAssignableFrom(raw)
        && p.getActualTypeArguments()[0] instanceof Class<?> element) {
      if (value.isArray()) {
        for (int i = 0; i < value.size(); i++) {
          check(value.get(i), element, path + "[" + i + "]");
        }
      } else {
        check(value, element, path + "[0]");
      }
    }
  }
}
