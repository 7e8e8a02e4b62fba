package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.lmctfy.spec.ContainerSpec;

/**
 * One section of {@link ContainerSpec}: its fields, with their controller and kernel files, and how
 * to plan, read back and normalise them on v1 and v2. {@link #all()} is the one list that {@link
 * ResourcePlan} (plan, {@code spec()}, the fields a spec sets) and the updater loop over, so a new
 * setting touches one handler; {@code ResourceHandlerTest} fails for a spec field no handler names.
 * Handlers are stateless.
 */
interface ResourceHandler {

  /**
   * A field of the spec, as recorded for a container ({@code cpu.limit}, {@code owner}).
   *
   * @param controller the cgroup v2 controller it writes to, or null when none (a v1 controller, a
   *     device filter, an owner)
   * @param v1Files the interface files it writes on v1 ({@code <size>} stands for a page size)
   * @param v2Files the interface files it writes on v2
   * @param value the part of a spec whose presence means the field is given (a list or map counts
   *     when not empty)
   */
  record Field(
      String name,
      String controller,
      List<String> v1Files,
      List<String> v2Files,
      Function<ContainerSpec, Object> value) {
    boolean isSet(ContainerSpec spec) {
      Object v = value.apply(spec);
      return v != null
          && !(v instanceof Collection<?> c && c.isEmpty())
          && !(v instanceof Map<?, ?> m && m.isEmpty());
    }
  }

  /** The handlers, in the order their writes are planned. */
  static List<ResourceHandler> all() {
    return Handlers.ALL;
  }

  /**
   * The fields this handler owns: a constant, not a list built per call (every plan and {@code
   * spec()} asks every handler, and building them was a fifth of a fake lifecycle).
   */
  List<Field> fields();

  /**
   * Fields of the spec this handler refuses on every kernel (a Google kernel patch, a switch the
   * kernel lacks): named here so that no spec field is without a handler.
   */
  default List<String> refused() {
    return List.of();
  }

  /** Adds the fields {@code spec} gives to {@code out}. */
  default void given(ContainerSpec spec, Collection<String> out) {
    for (Field f : fields()) {
      if (f.isSet(spec)) {
        out.add(f.name());
      }
    }
  }

  /** The v2 controller of {@code field} if it is this handler's and has one, else null. */
  default String controllerOf(String field) {
    for (Field f : fields()) {
      if (f.name().equals(field)) {
        return f.controller();
      }
    }
    return null;
  }

  /** Whether {@code fields} holds one of this handler's. */
  default boolean anyOf(Set<String> fields) {
    for (Field f : fields()) {
      if (fields.contains(f.name())) {
        return true;
      }
    }
    return false;
  }

  /** Plans the section of {@code spec} (absent: REPLACE resets it) into {@code out}. */
  void plan(ContainerSpec spec, Mode mode, ContainerView view, Planning out);

  /** Sets the section, as the kernel has it now for {@code fields} (null when none is asked). */
  void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out);

  /**
   * Sets the section as {@link #read} gives it back after applying {@code spec}, which gives {@code
   * given}.
   */
  void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out);

  /**
   * Refuses a REPLACE by {@code spec} of a container with the {@code recorded} fields that would
   * leave one of them as it is; {@code operation} starts the message.
   */
  default void checkReplace(ContainerSpec spec, Set<String> recorded, String operation) {}

  /**
   * Adds the writes that put back a {@code touched} field which the values read before an update
   * ({@code old}) cannot say (a limit read as null, "none": a DIFF of it writes nothing).
   */
  default void restoreUnset(
      ContainerSpec old, Set<String> touched, ContainerView view, List<FileWrite> out) {}

  /**
   * Adds writes that put back, as they are now, files {@code planned} writes whose value {@link
   * #read} cannot give back exactly; a restore writes them after the plan back.
   */
  default void keepAsRead(List<FileWrite> planned, ContainerView view, List<FileWrite> out) {}

  /** What the handlers of a plan put out, in order. */
  final class Planning {
    final List<FileWrite> writes = new ArrayList<>();
    final List<Chown> chowns = new ArrayList<>();
    DeviceFilter devices;
  }
}
