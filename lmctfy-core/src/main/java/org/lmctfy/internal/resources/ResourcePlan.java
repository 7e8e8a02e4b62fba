package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.FlatKeyed;
import org.lmctfy.spec.ContainerSpec;

/**
 * What applying a spec writes, worked out and checked against the host before anything is written:
 * every field's controller is mounted, values are in range, the parent allows them. Writes are
 * listed in an order the kernel accepts; each comes from one field, and a field the host cannot
 * honour is an error naming it, never ignored.
 *
 * @param writes interface-file writes of the container, in order
 * @param chowns owner changes of the container's directories and delegate files
 * @param v2Controllers controllers the parent must enable in its {@code cgroup.subtree_control}
 * @param unified the unified hierarchy if {@code v2Controllers} is not empty, else null
 * @param fields the spec's fields, as {@code section.field} ({@code cpu.limit}, {@code owner})
 * @param deviceFilter the cgroup v2 device filter to set after the writes, or null to leave it
 */
public record ResourcePlan(
    List<FileWrite> writes,
    List<Chown> chowns,
    Set<String> v2Controllers,
    Hierarchy unified,
    Set<String> fields,
    DeviceFilter deviceFilter) {

  /**
   * Plans {@code spec} for the container of {@code view}: each handler in turn. A CREATE knows the
   * new cgroup has no device filter (see {@link #knowingTheDeviceFilter}); an update asks that with
   * the container's recorded fields.
   */
  public static ResourcePlan of(ContainerSpec spec, Mode mode, ContainerView view) {
    Set<String> fields = fields(spec);
    ResourceHandler.Planning planning = new ResourceHandler.Planning();
    try {
      for (ResourceHandler handler : ResourceHandler.all()) {
        handler.plan(spec, mode, view, planning);
      }
    } catch (LmctfyException e) {
      if (e.errno().orElse(null) == Errno.ENOENT) {
        // a handler read a file of a controller the root lacks (the parent's
        // cpuset.cpus.effective):
        // said as such, with the driver's remedy
        checkFieldControllers(fields, controllersOf(fields, view), view);
      }
      throw e;
    }
    List<FileWrite> writes = planning.writes;
    TreeSet<String> v2 = new TreeSet<>();
    Hierarchy unified = null;
    for (FileWrite w : writes) {
      String controller = w.file().substring(0, w.file().indexOf('.'));
      if (ContainerView.isV2(w.hierarchy()) && !controller.equals("cgroup")) {
        unified = w.hierarchy();
        v2.add(controller);
      }
    }
    if (unified != null) {
      checkOffered(
          view,
          unified,
          v2,
          view.rootControllers(unified),
          c ->
              writes.stream()
                  .filter(w -> w.file().startsWith(c + "."))
                  .findFirst()
                  .orElseThrow()
                  .field());
    }
    return new ResourcePlan(
        List.copyOf(writes),
        List.copyOf(planning.chowns),
        Collections.unmodifiableSortedSet(v2),
        unified,
        fields,
        mode == Mode.CREATE
            ? DeviceHandler.knowing(planning.devices, Set.of(), mode, view)
            : planning.devices);
  }

  /**
   * This plan for a container with the {@code recorded} fields: removing a device filter it does
   * not have is no call at all (a tenant without CAP_BPF may give ALLOW ALL), and REPLACE without a
   * device section removes one it has.
   */
  public ResourcePlan knowingTheDeviceFilter(Set<String> recorded, Mode mode, ContainerView view) {
    DeviceFilter devices = DeviceHandler.knowing(deviceFilter, recorded, mode, view);
    return devices == deviceFilter
        ? this
        : new ResourcePlan(writes, chowns, v2Controllers, unified, fields, devices);
  }

  /**
   * Refuses a REPLACE by {@code spec} of a container with the {@code recorded} fields that would
   * leave one of them as it is: FAILED_PRECONDITION, its message starting with {@code operation}.
   */
  public static void checkReplace(ContainerSpec spec, Set<String> recorded, String operation) {
    for (ResourceHandler handler : ResourceHandler.all()) {
      handler.checkReplace(spec, recorded, operation);
    }
  }

  /**
   * The plan that puts back {@code old}, the values of the {@code touched} fields read before an
   * update, from whatever state a failure left.
   */
  public static ResourcePlan restoring(ContainerSpec old, Set<String> touched, ContainerView view) {
    // a DIFF back keeps the filter it plans: it was read from the one the container has
    ResourcePlan back = of(old, Mode.DIFF, view);
    List<FileWrite> writes = new ArrayList<>(back.writes());
    for (ResourceHandler handler : ResourceHandler.all()) {
      handler.restoreUnset(old, touched, view, writes);
    }
    return new ResourcePlan(
        List.copyOf(writes),
        back.chowns(),
        back.v2Controllers(),
        back.unified(),
        back.fields(),
        back.deviceFilter());
  }

  /**
   * Writes that put back, as they are now, files this plan writes whose value {@link #read} cannot
   * give back exactly; after a failure they go after the plan back.
   */
  public List<FileWrite> asRead(ContainerView view) {
    List<FileWrite> out = new ArrayList<>(0);
    for (ResourceHandler handler : ResourceHandler.all()) {
      handler.keepAsRead(writes, view, out);
    }
    return out;
  }

  /**
   * The fields this plan touches: the spec's, and those it resets or writes a device filter for.
   */
  public Set<String> touched() {
    Set<String> out = new LinkedHashSet<>(fields);
    writes.forEach(w -> out.add(w.field()));
    chowns.forEach(c -> out.add(c.field()));
    if (deviceFilter != null) {
      out.add(DeviceHandler.RULES);
    }
    return out;
  }

  /**
   * On v2 a controller must reach the API root (its {@code offered} cgroup.controllers); below,
   * create enables it. FAILED_PRECONDITION naming the field ({@code fieldOf} the controller).
   */
  private static void checkOffered(
      ContainerView view,
      Hierarchy unified,
      Set<String> controllers,
      String offered,
      Function<String, String> fieldOf) {
    for (String c : controllers) {
      if (!FlatKeyed.hasWord(offered, c)) {
        String field = fieldOf.apply(c);
        throw ContainerView.notOn(
            unified,
            field,
            "the "
                + c
                + " controller does not reach the API's root cgroup (its "
                + "cgroup.controllers is \""
                + offered
                + "\"); "
                + view.rootRemedy(c, offered));
      }
    }
  }

  /**
   * The v2 controllers the fields of {@code spec} write to: what an update enables down to the
   * container before it reads or writes anything. FAILED_PRECONDITION naming the field when one
   * does not reach the API's root.
   */
  public static Set<String> v2Controllers(ContainerSpec spec, ContainerView view) {
    Set<String> fields = fields(spec);
    Set<String> out = controllersOf(fields, view);
    checkFieldControllers(fields, out, view);
    return out;
  }

  /** The v2 controllers of {@code fields} that the unified hierarchy has (none without one). */
  private static Set<String> controllersOf(Set<String> fields, ContainerView view) {
    Set<String> out = new TreeSet<>();
    Hierarchy unified = view.unified().orElse(null);
    if (unified != null) {
      for (String field : fields) {
        String controller = controllerOf(field);
        if (controller != null && unified.has(controller)) {
          out.add(controller);
        }
      }
    }
    return out;
  }

  /**
   * Checks that the v2 {@code controllers} of {@code fields} reach the API's root (nothing is read
   * where there are none).
   */
  private static void checkFieldControllers(
      Set<String> fields, Set<String> controllers, ContainerView view) {
    if (controllers.isEmpty()) {
      return;
    }
    Hierarchy unified = view.unified().orElseThrow();
    checkOffered(
        view,
        unified,
        controllers,
        view.rootControllers(unified),
        c -> fields.stream().filter(f -> c.equals(controllerOf(f))).findFirst().orElseThrow());
  }

  private static String controllerOf(String field) {
    for (ResourceHandler handler : ResourceHandler.all()) {
      String controller = handler.controllerOf(field);
      if (controller != null) {
        return controller;
      }
    }
    return null;
  }

  /** The fields a spec sets, as {@code section.field}. */
  public static Set<String> fields(ContainerSpec spec) {
    Set<String> out = new LinkedHashSet<>();
    for (ResourceHandler handler : ResourceHandler.all()) {
      handler.given(spec, out);
    }
    return out;
  }

  /** The container's spec as the kernel has it now, for the fields given. */
  public static ContainerSpec read(ContainerView view, Set<String> fields) {
    ContainerSpec.Builder out = ContainerSpec.builder();
    for (ResourceHandler handler : ResourceHandler.all()) {
      handler.read(view, fields, out);
    }
    return out.build();
  }

  /**
   * What {@link #read} gives back after applying {@code spec}: values as the kernel stores them.
   */
  public static ContainerSpec normalise(ContainerSpec spec, ContainerView view) {
    Set<String> given = fields(spec);
    ContainerSpec.Builder out =
        ContainerSpec.builder().virtualHost(spec.virtualHost()).filesystem(spec.filesystem());
    for (ResourceHandler handler : ResourceHandler.all()) {
      handler.normalise(spec, given, view, out);
    }
    return out.build();
  }
}
