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
import org.lmctfy.spec.BlockIoSpec;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.CpuSpec;
import org.lmctfy.spec.MemorySpec;
import org.lmctfy.spec.MonitoringSpec;
import org.lmctfy.spec.NetworkSpec;

/**
 * What applying a spec writes, worked out and checked against the host before anything is
 * written: every field's controller is mounted, values are in range, the parent allows them.
 * Writes are listed in an order the kernel accepts; each comes from one field, and a field the
 * host cannot honour is an error naming it, never ignored.
 *
 * @param writes interface-file writes of the container, in order
 * @param chowns owner changes of the container's directories and delegate files
 * @param v2Controllers controllers the parent must enable in its {@code cgroup.subtree_control}
 * @param unified the unified hierarchy if {@code v2Controllers} is not empty, else null
 * @param fields the spec's fields, as {@code section.field} ({@code cpu.limit}, {@code owner})
 * @param deviceFilter the cgroup v2 device filter to set after the writes, or null to leave it
 */
public record ResourcePlan(List<FileWrite> writes, List<Chown> chowns, Set<String> v2Controllers,
    Hierarchy unified, Set<String> fields, DeviceFilter deviceFilter) {

  /** Plans {@code spec} for the container of {@code host}. */
  public static ResourcePlan of(ContainerSpec spec, Mode mode, Host host) {
    if (spec.cpu() != null) {
      CpuHandler.validate(spec.cpu());
    }
    Set<String> fields = fields(spec);
    List<FileWrite> writes = new ArrayList<>();
    DeviceFilter devices;
    try {
      CpuHandler.plan(spec.cpu(), mode, host, writes);
      MemoryHandler.plan(spec.memory(), mode, host, writes);
      PidsHandler.plan(spec.pids(), mode, host, writes);
      BlockIoHandler.plan(spec.blockio(), mode, host, writes);
      devices = DeviceHandler.plan(spec.device(), mode, host, writes);
      OtherHandlers.hugetlb(spec.hugetlb(), mode, host, writes);
      OtherHandlers.network(spec.network(), mode, host, writes);
      OtherHandlers.monitoring(spec.monitoring(), host);
      OtherHandlers.misc(spec.misc(), mode, host, writes);
      OtherHandlers.rdma(spec.rdma(), mode, host, writes);
      OtherHandlers.childrenLimit(spec.childrenLimit(), mode, host, writes);
      OtherHandlers.unified(spec.unified(), host, writes);
    } catch (LmctfyException e) {
      if (e.errno().orElse(null) == Errno.ENOENT) {
        // a handler read a file of a controller the root lacks (the parent's cpuset.cpus.effective):
        // said as such, with the driver's remedy
        checkFieldControllers(fields, controllersOf(fields, host), host);
      }
      throw e;
    }
    List<Chown> chowns = new ArrayList<>();
    OwnerHandler.plan(spec.owner(), spec.ownerGroup(), mode, host, host.managed(), chowns);
    TreeSet<String> v2 = new TreeSet<>();
    Hierarchy unified = null;
    for (FileWrite w : writes) {
      String controller = w.file().substring(0, w.file().indexOf('.'));
      if (Host.isV2(w.hierarchy()) && !controller.equals("cgroup")) {
        unified = w.hierarchy();
        v2.add(controller);
      }
    }
    if (unified != null) {
      checkOffered(host, unified, v2, host.rootControllers(unified),
          c -> writes.stream().filter(w -> w.file().startsWith(c + ".")).findFirst().orElseThrow().field());
    }
    return new ResourcePlan(List.copyOf(writes), List.copyOf(chowns), Collections.unmodifiableSortedSet(v2), unified,
        fields, devices);
  }

  /**
   * This plan for a container that has a device filter of lmctfy's ({@code has}: its recorded
   * fields include device.rules) or not: removing none is no call at all (a tenant without
   * CAP_BPF may give ALLOW ALL), and REPLACE without a device section removes one it has.
   */
  public ResourcePlan knowingTheDeviceFilter(boolean has, Mode mode, Host host) {
    DeviceFilter devices = deviceFilter;
    if (devices != null && devices.rules() == null && !has) {
      devices = null;
    } else if (devices == null && has && mode == Mode.REPLACE && host.find("devices").isEmpty()) {
      devices = host.unified().map(u -> new DeviceFilter(u, null)).orElse(null);
    }
    return devices == deviceFilter ? this : new ResourcePlan(writes, chowns, v2Controllers, unified, fields, devices);
  }

  /**
   * On v2 a controller must reach the API root (its {@code offered} cgroup.controllers); below,
   * create enables it. FAILED_PRECONDITION naming the field ({@code fieldOf} the controller).
   */
  private static void checkOffered(Host host, Hierarchy unified, Set<String> controllers, String offered,
      Function<String, String> fieldOf) {
    for (String c : controllers) {
      if (!FlatKeyed.hasWord(offered, c)) {
        String field = fieldOf.apply(c);
        throw Host.notOn(unified, field, "the " + c + " controller does not reach the API's root cgroup (its "
            + "cgroup.controllers is \"" + offered + "\"); " + host.rootRemedy(c, offered));
      }
    }
  }

  /**
   * The v2 controllers the fields of {@code spec} write to: what an update enables down to the
   * container before it reads or writes anything. FAILED_PRECONDITION naming the field when one
   * does not reach the API's root.
   */
  public static Set<String> v2Controllers(ContainerSpec spec, Host host) {
    Set<String> fields = fields(spec);
    Set<String> out = controllersOf(fields, host);
    checkFieldControllers(fields, out, host);
    return out;
  }

  /** The v2 controllers of {@code fields} that the unified hierarchy has (none without one). */
  private static Set<String> controllersOf(Set<String> fields, Host host) {
    Set<String> out = new TreeSet<>();
    Hierarchy unified = host.unified().orElse(null);
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
  private static void checkFieldControllers(Set<String> fields, Set<String> controllers, Host host) {
    if (controllers.isEmpty()) {
      return;
    }
    Hierarchy unified = host.unified().orElseThrow();
    checkOffered(host, unified, controllers, host.rootControllers(unified),
        c -> fields.stream().filter(f -> c.equals(controllerOf(f))).findFirst().orElseThrow());
  }

  private static String controllerOf(String field) {
    if (field.startsWith("unified.")) {
      return field.substring("unified.".length(), field.indexOf('.', "unified.".length()));
    }
    if (field.equals("cpu.mask") || field.equals("cpu.memory_nodes") || field.equals("cpu.partition")) {
      return "cpuset";
    }
    int dot = field.indexOf('.');
    String section = dot < 0 ? field : field.substring(0, dot);
    return switch (section) {
      case "cpu", "memory", "pids", "hugetlb", "misc", "rdma" -> section;
      case "blockio" -> "io";
      default -> null;
    };
  }

  /** The fields a spec sets, as {@code section.field}. */
  public static Set<String> fields(ContainerSpec s) {
    Set<String> out = new LinkedHashSet<>();
    add(out, "owner", s.owner());
    add(out, "owner_group", s.ownerGroup());
    add(out, "children_limit", s.childrenLimit());
    CpuSpec c = s.cpu();
    if (c != null) {
      add(out, "cpu.limit", c.limit());
      add(out, "cpu.max_limit", c.maxLimit());
      add(out, "cpu.mask", c.mask());
      add(out, "cpu.memory_nodes", c.memoryNodes());
      add(out, "cpu.period_us", c.periodUs());
      add(out, "cpu.burst_us", c.burstUs());
      add(out, "cpu.idle", c.idle());
      add(out, "cpu.uclamp_min", c.uclampMin());
      add(out, "cpu.uclamp_max", c.uclampMax());
      add(out, "cpu.partition", c.partition());
    }
    MemorySpec m = s.memory();
    if (m != null) {
      add(out, "memory.limit", m.limit());
      add(out, "memory.swap_limit", m.swapLimit());
      add(out, "memory.reservation", m.reservation());
      add(out, "memory.high", m.high());
      add(out, "memory.oom_kill_disable", m.oomKillDisable());
      add(out, "memory.oom_group", m.oomGroup());
      add(out, "memory.swappiness", m.swappiness());
      add(out, "memory.min", m.min());
      add(out, "memory.zswap_limit", m.zswapLimit());
    }
    if (s.pids() != null) {
      add(out, "pids.limit", s.pids().limit());
    }
    BlockIoSpec b = s.blockio();
    if (b != null) {
      add(out, "blockio.weight", b.weight());
      add(out, "blockio.device_limits", b.deviceLimits().isEmpty() ? null : b.deviceLimits());
      add(out, "blockio.device_weights", b.deviceWeights().isEmpty() ? null : b.deviceWeights());
      add(out, "blockio.latency_targets", b.latencyTargets().isEmpty() ? null : b.latencyTargets());
    }
    add(out, "device.rules", s.device());
    add(out, "hugetlb.limits", s.hugetlb());
    NetworkSpec n = s.network();
    if (n != null) {
      add(out, "network.classid", n.classid());
      add(out, "network.priorities", n.priorities().isEmpty() ? null : n.priorities());
    }
    add(out, "monitoring", s.monitoring());
    add(out, "misc.limits", s.misc());
    add(out, "rdma.limits", s.rdma());
    s.unified().keySet().forEach(file -> out.add("unified." + file));
    return out;
  }

  private static void add(Set<String> out, String field, Object value) {
    if (value != null) {
      out.add(field);
    }
  }

  /** The container's spec as the kernel has it now, for the fields given. */
  public static ContainerSpec read(Host host, Set<String> fields) {
    Long[] owner = OwnerHandler.read(host, host.managed().get(0), fields);
    boolean cpu = fields.stream().anyMatch(f -> f.startsWith("cpu."));
    return ContainerSpec.builder()
        .owner(owner[0]).ownerGroup(owner[1])
        .childrenLimit(OtherHandlers.readChildrenLimit(host, fields))
        .cpu(cpu ? CpuHandler.read(host, fields) : null)
        .memory(MemoryHandler.read(host, fields))
        .pids(PidsHandler.read(host, fields))
        .blockio(BlockIoHandler.read(host, fields))
        .device(DeviceHandler.read(host, fields))
        .hugetlb(OtherHandlers.readHugetlb(host, fields))
        .network(OtherHandlers.readNetwork(host, fields))
        .monitoring(fields.contains("monitoring") ? new MonitoringSpec(null) : null)
        .misc(OtherHandlers.readMisc(host, fields))
        .rdma(OtherHandlers.readRdma(host, fields))
        .unified(OtherHandlers.readUnified(host, fields))
        .build();
  }

  /** What {@link #read} gives back after applying {@code spec}: values as the kernel stores them. */
  public static ContainerSpec normalise(ContainerSpec spec, Host host) {
    Set<String> fields = fields(spec);
    boolean cpu = fields.stream().anyMatch(f -> f.startsWith("cpu."));
    boolean memory = fields.stream().anyMatch(f -> f.startsWith("memory."));
    boolean blockio = fields.stream().anyMatch(f -> f.startsWith("blockio."));
    boolean network = fields.stream().anyMatch(f -> f.startsWith("network."));
    return ContainerSpec.builder()
        .owner(spec.owner()).ownerGroup(spec.ownerGroup()).childrenLimit(spec.childrenLimit())
        .cpu(cpu ? CpuHandler.normalise(spec.cpu(), host) : null)
        .memory(memory ? MemoryHandler.normalise(spec.memory(), host) : null)
        .pids(fields.contains("pids.limit") ? spec.pids() : null)
        .blockio(blockio ? BlockIoHandler.normalise(spec.blockio(), host) : null)
        .device(spec.device() == null ? null : DeviceHandler.normalise(spec.device()))
        .hugetlb(spec.hugetlb() == null ? null : OtherHandlers.normalise(spec.hugetlb()))
        .network(network ? OtherHandlers.normalise(spec.network()) : null)
        .monitoring(spec.monitoring())
        .misc(spec.misc() == null ? null : OtherHandlers.normalise(spec.misc()))
        .rdma(spec.rdma() == null ? null : OtherHandlers.normalise(spec.rdma()))
        .unified(spec.unified())
        .virtualHost(spec.virtualHost()).filesystem(spec.filesystem())
        .build();
  }
}
