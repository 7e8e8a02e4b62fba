package org.lmctfy.testing.junit;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.lmctfy.ContainerApi;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** The JUnit 5 extension behind {@link FakeCgroups}; register it with that annotation. */
public final class FakeCgroupsExtension implements BeforeEachCallback, ParameterResolver {
  private static final Namespace NAMESPACE = Namespace.create(FakeCgroupsExtension.class);

  /** The fake and API of one test; the store closes the API when the test ends. */
  private record Fixture(FakeCgroupFs fs, ContainerApi api)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    @Override
    public void close() {
      api.close();
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IllegalAccessException {
    Fixture fixture = fixture(context);
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      for (Class<?> c = instance.getClass(); c != Object.class; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          inject(f, instance, fixture);
        }
      }
    }
  }

  private static void inject(Field f, Object instance, Fixture fixture)
      throws IllegalAccessException {
    if (Modifier.isStatic(f.getModifiers()) || Modifier.isFinal(f.getModifiers())) {
      return;
    }
    Object value = valueFor(f.getType(), fixture);
    if (value != null) {
      f.setAccessible(true);
      f.set(instance, value);
    }
  }

  private static Object valueFor(Class<?> type, Fixture fixture) {
    if (type == FakeCgroupFs.class) {
      return fixture.fs();
    }
    if (type == ContainerApi.class) {
      return fixture.api();
    }
    return null;
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == FakeCgroupFs.class || type == ContainerApi.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return valueFor(parameter.getParameter().getType(), fixture(context));
  }

  /** The fixture of the current test (or of the class, for constructors and @BeforeAll). */
  private static Fixture fixture(ExtensionContext context) {
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            Fixture.class,
            k -> {
              FakeCgroupFs fs = FakeCgroupFs.create(layout(context));
              return new Fixture(fs, ContainerApi.open(fs));
            },
            Fixture.class);
  }

  private static FakeLayout layout(ExtensionContext context) {
    Optional<FakeCgroups> onMethod =
        context
            .getTestMethod()
            .flatMap(m -> AnnotationSupport.findAnnotation(m, FakeCgroups.class));
    return onMethod
        .or(
            () ->
                context
                    .getTestClass()
                    .flatMap(c -> AnnotationSupport.findAnnotation(c, FakeCgroups.class)))
        .map(FakeCgroups::layout)
        .orElse(FakeLayout.SYSTEMD_V2);
  }
}
