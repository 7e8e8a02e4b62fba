package org.lmctfy.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lmctfy.internal.codec.RecordShape.Component;
import org.lmctfy.internal.codec.RecordShape.Param;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.spec.RunSpec;

class RecordShapeTest {

  @Test
  void everySpecRecordsShapeIsWhatReflectionReadsFromItsAnnotations() {
    Set<Class<?>> records = new LinkedHashSet<>();
    for (Class<?> root :
        List.of(
            ContainerSpec.class,
            RunSpec.class,
            EventSpec.class,
            InitSpec.class,
            ContainerStats.class)) {
      collect(root, records);
    }

    assertThat(records).hasSizeGreaterThan(25);
    for (Class<?> type : records) {
      RecordShape shape = RecordShape.of(type);
      assertThat(shape.params()).as(type.getName()).containsExactlyElementsOf(expectedParams(type));
      assertThat(shape.components())
          .as(type.getName())
          .containsExactlyElementsOf(expectedComponents(type));
    }
  }

  @Test
  void aStaticJsonCreatorFactoryIsTheCreatorAndNamesItsParameters() {
    RecordShape rule = RecordShape.of(org.lmctfy.spec.DeviceSpec.DeviceRule.class);

    assertThat(rule.params())
        .extracting(Param::name)
        .containsExactly("permission", "type", "major", "minor", "access");
    assertThat(rule.params()).extracting(Param::type).contains(Long.class);
  }

  private static List<Param> expectedParams(Class<?> type) {
    Executable creator = creator(type);
    RecordComponent[] parts = type.getRecordComponents();
    Parameter[] parameters = creator.getParameters();
    List<Param> params = new ArrayList<>();
    for (int i = 0; i < parameters.length; i++) {
      JsonProperty property = parameters[i].getAnnotation(JsonProperty.class);
      JsonSetter setter = parameters[i].getAnnotation(JsonSetter.class);
      params.add(
          new Param(
              property == null ? parts[i].getName() : property.value(),
              parameters[i].getParameterizedType(),
              setter != null && setter.nulls() == Nulls.FAIL,
              marked(parameters[i], RecordShape.CPU_MASK),
              marked(parameters[i], RecordShape.BYTE_SIZE)));
    }
    return params;
  }

  /** Whether {@code p} carries the annotation named so (the spec's marks are package-private). */
  private static boolean marked(Parameter p, String annotation) {
    return Arrays.stream(p.getAnnotations())
        .anyMatch(a -> a.annotationType().getName().equals(annotation));
  }

  private static List<Component> expectedComponents(Class<?> type) {
    List<Component> components = new ArrayList<>();
    for (RecordComponent c : type.getRecordComponents()) {
      JsonProperty property = c.getAccessor().getAnnotation(JsonProperty.class);
      JsonInclude include = c.getAccessor().getAnnotation(JsonInclude.class);
      components.add(
          new Component(
              property == null ? c.getName() : property.value(),
              c.getAccessor(),
              include != null && include.value() == JsonInclude.Include.NON_EMPTY));
    }
    return components;
  }

  private static Executable creator(Class<?> type) {
    for (Method m : type.getDeclaredMethods()) {
      if (Modifier.isStatic(m.getModifiers()) && m.isAnnotationPresent(JsonCreator.class)) {
        return m;
      }
    }
    Class<?>[] types = new Class<?>[type.getRecordComponents().length];
    for (int i = 0; i < types.length; i++) {
      types[i] = type.getRecordComponents()[i].getType();
    }
    try {
      return type.getDeclaredConstructor(types);
    } catch (NoSuchMethodException e) {
      throw new AssertionError(e);
    }
  }

  private static void collect(Type type, Set<Class<?>> records) {
    if (type instanceof ParameterizedType p) {
      for (Type argument : p.getActualTypeArguments()) {
        collect(argument, records);
      }
    } else if (type instanceof Class<?> c && c.isRecord() && records.add(c)) {
      for (RecordComponent component : c.getRecordComponents()) {
        collect(component.getGenericType(), records);
      }
    }
  }
}
