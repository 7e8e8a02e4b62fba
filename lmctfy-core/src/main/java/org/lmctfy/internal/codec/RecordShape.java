package org.lmctfy.internal.codec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.lmctfy.internal.codec.ClassFileAnnotations.Annotated;
import org.lmctfy.internal.codec.ClassFileAnnotations.Found;

/**
 * What the codec knows of one spec record, read once from its Jackson annotations (through {@link
 * ClassFileAnnotations}, which makes no annotation proxies): the creator that binding calls (a
 * static {@link JsonCreator} factory if the record has one, else its canonical constructor) with
 * each parameter's field name, type and whether it is required ({@code @JsonSetter(nulls =
 * Nulls.FAIL)}), a CPU mask or a byte size (the spec package's {@code Inputs}); and the components
 * that writing reads, in declaration order, with their names and whether an empty value is left out
 * ({@code @JsonInclude(NON_EMPTY)}; null is always left out).
 *
 * <p>Immutable and thread-safe; one instance per record class, cached in a {@link ClassValue}.
 */
final class RecordShape {
  private static final ClassValue<RecordShape> SHAPES =
      new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
          return new RecordShape(type);
        }
      };

  /**
   * The spec package's marks of components read with {@link CpuMask#read} and {@link
   * ByteSize#read}, by name: they are package-private there, so that the records import nothing of
   * the codec to say it.
   */
  static final String CPU_MASK = "org.lmctfy.spec.Inputs$CpuMask";

  static final String BYTE_SIZE = "org.lmctfy.spec.Inputs$ByteSize";

  /** One parameter of the creator: the field it binds from. */
  record Param(String name, Type type, boolean required, boolean cpuMask, boolean byteSize) {}

  /** One component as written: its field name, accessor and whether empty values are left out. */
  record Component(String name, Method accessor, boolean nonEmpty) {}

  private final Class<?> type;
  private final Executable creator;
  private final List<Param> params = new ArrayList<>();
  private final Map<String, Integer> indexes = new HashMap<>();
  private final String knownFields;
  private final List<Component> components = new ArrayList<>();

  private RecordShape(Class<?> type) {
    this.type = type;
    RecordComponent[] parts = type.getRecordComponents();
    ClassFileAnnotations file = ClassFileAnnotations.of(type);
    Constructor<?> canonical = canonical(type, parts);
    // The components' annotations are on the canonical constructor's parameters too.
    Annotated canonicalAnnotations =
        file.method(
            "<init>", ClassFileAnnotations.descriptor(canonical.getParameterTypes(), void.class));
    Method factory = factory(type, parts.length, file);
    this.creator = factory == null ? canonical : factory;
    creator.setAccessible(true);
    Annotated annotations =
        factory == null
            ? canonicalAnnotations
            : file.method(
                factory.getName(),
                ClassFileAnnotations.descriptor(factory.getParameterTypes(), type));
    Type[] types = creator.getGenericParameterTypes();
    for (int i = 0; i < types.length; i++) {
      String name = name(annotations, i, parts[i]);
      Found setter = annotations.parameter(i, JsonSetter.class);
      params.add(
          new Param(
              name,
              types[i],
              setter != null && "FAIL".equals(setter.values().get("nulls")),
              annotations.parameter(i, CPU_MASK) != null,
              annotations.parameter(i, BYTE_SIZE) != null));
      indexes.put(name, i);
    }
    this.knownFields = String.join(", ", new TreeSet<>(indexes.keySet()));
    for (int i = 0; i < parts.length; i++) {
      Method accessor = parts[i].getAccessor();
      accessor.setAccessible(true);
      Found include = canonicalAnnotations.parameter(i, JsonInclude.class);
      components.add(
          new Component(
              name(canonicalAnnotations, i, parts[i]),
              accessor,
              include != null && "NON_EMPTY".equals(include.values().get("value"))));
    }
  }

  /** The {@link JsonProperty} name of parameter {@code i}, or its component's name. */
  private static String name(Annotated annotations, int i, RecordComponent part) {
    Found property = annotations.parameter(i, JsonProperty.class);
    Object value = property == null ? null : property.values().get("value");
    return value == null || value.equals("") ? part.getName() : (String) value;
  }

  /** A static {@link JsonCreator} factory of the record taking one value per component, or null. */
  private static Method factory(Class<?> type, int arity, ClassFileAnnotations file) {
    for (Method m : type.getDeclaredMethods()) {
      if (Modifier.isStatic(m.getModifiers())
          && m.getReturnType() == type
          && arity > 0
          && m.getParameterCount() == arity
          && file.method(m.getName(), ClassFileAnnotations.descriptor(m.getParameterTypes(), type))
                  .annotation(JsonCreator.class)
              != null) {
        return m;
      }
    }
    return null;
  }

  private static Constructor<?> canonical(Class<?> type, RecordComponent[] parts) {
    Class<?>[] types = new Class<?>[parts.length];
    for (int i = 0; i < parts.length; i++) {
      types[i] = parts[i].getType();
    }
    try {
      return type.getDeclaredConstructor(types);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(
          "record " + type.getName() + " has no canonical constructor", e);
    }
  }

  /** The shape of the record class {@code type}. */
  static RecordShape of(Class<?> type) {
    return SHAPES.get(type);
  }

  Class<?> type() {
    return type;
  }

  /** The creator's parameters, in its order. */
  List<Param> params() {
    return params;
  }

  /** The index of the parameter bound from field {@code name}, or -1 if there is none. */
  int indexOf(String name) {
    Integer i = indexes.get(name);
    return i == null ? -1 : i;
  }

  /** The field names, sorted and joined with ", ", for "unknown field" messages. */
  String knownFields() {
    return knownFields;
  }

  /** The components in declaration order, for writing. */
  List<Component> components() {
    return components;
  }

  /** Calls the creator; a runtime exception or error it throws comes out unwrapped. */
  Object create(Object[] args) {
    try {
      return creator instanceof Constructor<?> c
          ? c.newInstance(args)
          : ((Method) creator).invoke(null, args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("cannot create a " + type.getName(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot create a " + type.getName(), e);
    }
  }

  /** The value of component {@code c} of {@code record}. */
  static Object read(Component c, Object record) {
    try {
      return c.accessor().invoke(record);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + c.name() + " of " + record.getClass(), e);
    }
  }
}
