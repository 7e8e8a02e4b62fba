package org.lmctfy.internal.codec;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.internal.codec.RecordShape.Param;

/**
 * Binds a tree (from JSON or from the text format) into a spec record, by reflection over the
 * records' annotations ({@link RecordShape}). A tree is made of plain values: a message is a {@code
 * Map<String, Object>} in field order, a list a {@code List}, a string a {@code String}, an integer
 * a {@code Long} (a {@code BigInteger} when it does not fit), a float a {@code Double}, a boolean a
 * {@code Boolean}, and a JSON {@code null} is {@code null}. The rules are the ones the codec has
 * always had: an unknown field fails (checked over the whole tree first, so a misspelt field is
 * named rather than reported as a missing one); a single value is taken for a one-element list (a
 * repeated text-format field given once); numbers, strings and booleans are never coerced into one
 * another, nor floats into integers, nor numbers into enums; a required field
 * ({@code @JsonSetter(nulls = Nulls.FAIL)}) that is absent or null fails. Failures are {@link
 * LmctfyException}s with {@link ErrorCode#INVALID_ARGUMENT} whose message starts with the field's
 * dotted path ({@code blockio.device_limits[1].read_bps}); a record's own validation failure gets
 * the indexes filled into its {@code []}.
 *
 * <p>Stateless and thread-safe.
 */
final class TreeBinder {
  private TreeBinder() {}

  /** {@code tree} as a {@code type}. */
  static <T> T bind(Map<String, Object> tree, Class<T> type) {
    checkNames(tree, type, "");
    return type.cast(value(tree, type, ""));
  }

  /** Fails on the first field, anywhere in {@code node}, that its record lacks. */
  private static void checkNames(Object node, Type type, String path) {
    if (type instanceof ParameterizedType p
        && p.getRawType() instanceof Class<?> raw
        && Collection.class.isAssignableFrom(raw)) {
      Type element = p.getActualTypeArguments()[0];
      if (!(node instanceof List<?> list)) {
        checkNames(node, element, path + "[0]");
        return;
      }
      for (int i = 0; i < list.size(); i++) {
        checkNames(list.get(i), element, path + "[" + i + "]");
      }
      return;
    }
    if (!(type instanceof Class<?> c) || !c.isRecord() || !(node instanceof Map<?, ?> message)) {
      return;
    }
    RecordShape shape = RecordShape.of(c);
    for (Map.Entry<?, ?> field : message.entrySet()) {
      String name = (String) field.getKey();
      String fieldPath = join(path, name);
      checkNames(
          field.getValue(), shape.params().get(index(shape, name, fieldPath)).type(), fieldPath);
    }
  }

  private static int index(RecordShape shape, String name, String path) {
    int i = shape.indexOf(name);
    if (i < 0) {
      throw ParseErrors.problem(path, "unknown field; known fields: " + shape.knownFields());
    }
    return i;
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** {@code node} (not a JSON null) as a value of {@code type}. */
  private static Object value(Object node, Type type, String path) {
    if (type instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      Type[] args = p.getActualTypeArguments();
      return Map.class.isAssignableFrom(raw)
          ? map(node, args[1], path, raw)
          : collection(node, args[0], path, Set.class.isAssignableFrom(raw));
    }
    Class<?> c = (Class<?>) type;
    if (c == Long.class || c == long.class || c == Integer.class || c == int.class) {
      return integer(node, c == Long.class || c == long.class, path);
    }
    if (c == Boolean.class || c == boolean.class) {
      return node instanceof Boolean ? node : mismatch(node, c, path);
    }
    if (c == Double.class
        || c == double.class) { // an integer is a whole number of it: uclamp_min: 20
      return node instanceof Double
          ? node
          : node instanceof Long l ? (Object) l.doubleValue() : mismatch(node, c, path);
    }
    if (c == String.class) {
      return node instanceof String ? node : mismatch(node, c, path);
    }
    if (c.isEnum()) {
      for (Object constant : c.getEnumConstants()) {
        if (((Enum<?>) constant).name().equals(node)) {
          return constant;
        }
      }
      return mismatch(node, c, path);
    }
    if (c.isRecord()) {
      return node instanceof Map<?, ?> message
          ? record(message, RecordShape.of(c), path)
          : mismatch(node, c, path);
    }
    throw new IllegalStateException("the codec cannot bind " + type + " at " + path);
  }

  private static Object integer(Object node, boolean isLong, String path) {
    if (!(node instanceof Long) && !(node instanceof BigInteger)) {
      return mismatch(node, isLong ? long.class : int.class, path);
    }
    if (node instanceof Long l && (isLong || l == l.intValue())) {
      return isLong ? (Object) l : (Object) l.intValue();
    }
    String range =
        isLong
            ? "long (" + Long.MIN_VALUE + " - " + Long.MAX_VALUE + ")"
            : "int (" + Integer.MIN_VALUE + " - " + Integer.MAX_VALUE + ")";
    throw ParseErrors.problem(
        path, "invalid value: Numeric value (" + node + ") out of range of " + range);
  }

  /** A list or set: the elements of an array, or a single value as its one element. */
  private static Collection<Object> collection(
      Object node, Type element, String path, boolean set) {
    Collection<Object> out = set ? new HashSet<>() : new ArrayList<>();
    if (!(node instanceof List<?> list)) {
      out.add(nullable(node, element, path + "[0]"));
      return out;
    }
    for (int i = 0; i < list.size(); i++) {
      out.add(nullable(list.get(i), element, path + "[" + i + "]"));
    }
    return out;
  }

  private static Map<String, Object> map(Object node, Type value, String path, Class<?> raw) {
    if (!(node instanceof Map<?, ?> message)) {
      return mismatch(node, raw, path);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : message.entrySet()) {
      out.put((String) e.getKey(), nullable(e.getValue(), value, path + "." + e.getKey()));
    }
    return out;
  }

  private static Object nullable(Object node, Type type, String path) {
    return node == null ? null : value(node, type, path);
  }

  private static Object record(Map<?, ?> node, RecordShape shape, String path) {
    List<Param> params = shape.params();
    Object[] args = new Object[params.size()];
    boolean[] given = new boolean[args.length];
    for (Map.Entry<?, ?> field : node.entrySet()) {
      String name = (String) field.getKey();
      String fieldPath = join(path, name);
      int i = index(shape, name, fieldPath);
      Param param = params.get(i);
      Object value = field.getValue();
      given[i] = true;
      if (value == null) {
        if (param.required()) {
          throw ParseErrors.problem(fieldPath, "required");
        }
        args[i] =
            param.type() instanceof Class<?> c && c.isPrimitive()
                ? mismatch(null, c, fieldPath)
                : null;
      } else {
        Long size = param.byteSize() ? ByteSize.read(value, fieldPath) : null;
        args[i] =
            size != null
                ? size
                : param.cpuMask() ? CpuMask.read(value) : value(value, param.type(), fieldPath);
      }
    }
    for (int i = 0; i < args.length; i++) {
      if (!given[i]) {
        if (params.get(i).required()) {
          throw ParseErrors.problem(join(path, params.get(i).name()), "required");
        }
        args[i] = zero(params.get(i).type());
      }
    }
    try {
      return shape.create(args);
    } catch (LmctfyException e) {
      String message = withIndexes(e.getMessage(), path);
      throw message.equals(e.getMessage()) ? e : new LmctfyException(e.code(), message, e);
    } catch (RuntimeException t) {
      String problem = t.getMessage() == null ? "`" + t.getClass().getName() + "`" : t.getMessage();
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          (path.isEmpty() ? "spec" : path)
              + ": Cannot construct instance of `"
              + shape.type().getName()
              + "`, problem: "
              + problem,
          t);
    }
  }

  /** What an absent field binds to: null, or a primitive's zero. */
  private static Object zero(Type type) {
    if (type == long.class) {
      return 0L;
    }
    if (type == int.class) {
      return 0;
    }
    return type == boolean.class ? false : null;
  }

  /**
   * Fills the empty brackets of a validation message ({@code device.rules[].access}) with the
   * indexes of {@code path} ({@code device.rules[2]}), when the message names that field.
   */
  static String withIndexes(String message, String path) {
    if (path.indexOf('[') < 0) {
      return message;
    }
    StringBuilder template = new StringBuilder(); // path without its indexes: device.rules[]
    boolean inBrackets = false;
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      inBrackets = c == '[' || (inBrackets && c != ']');
      if (!inBrackets || c == '[') {
        template.append(c);
      }
    }
    return message.replace(template, path);
  }

  /** Fails: {@code node} is not a {@code type}. */
  private static <T> T mismatch(Object node, Class<?> type, String path) {
    throw ParseErrors.problem(
        path.isEmpty() ? "spec" : path,
        "invalid value " + shown(node) + ": expected " + expected(type));
  }

  /** How a value of the wrong type appears in a message. */
  private static String shown(Object node) {
    if (node instanceof List<?>) {
      return "[...] (a list, or a field given more than once)";
    }
    if (node instanceof Map<?, ?>) {
      return "{...}";
    }
    if (node instanceof ByteSize.Literal) {
      return node + " (a size: only byte fields take one)";
    }
    return ParseErrors.describe(node);
  }

  /** What a value of {@code type} looks like, for "expected ..." messages. */
  private static String expected(Class<?> type) {
    if (type == long.class || type == int.class) {
      return "an integer";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type.isEnum()) {
      return "one of "
          + Arrays.stream(type.getEnumConstants())
              .map(String::valueOf)
              .collect(Collectors.joining(", "));
    }
    if (Map.class.isAssignableFrom(type)) {
      return "a message of names to strings";
    }
    return "a message { ... }";
  }
}
