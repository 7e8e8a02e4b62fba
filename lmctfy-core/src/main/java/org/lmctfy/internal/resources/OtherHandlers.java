package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.HugetlbSpec;
import org.lmctfy.spec.HugetlbSpec.HugetlbLimit;
import org.lmctfy.internal.codec.UnifiedFiles;
import org.lmctfy.spec.MiscSpec;
import org.lmctfy.spec.MiscSpec.MiscLimit;
import org.lmctfy.spec.MonitoringSpec;
import org.lmctfy.spec.NetworkSpec;
import org.lmctfy.spec.NetworkSpec.InterfacePriority;
import org.lmctfy.spec.RdmaSpec;
import org.lmctfy.spec.RdmaSpec.RdmaLimit;

/**
 * The small sections. hugetlb: v1 {@code hugetlb.<size>.limit_in_bytes}, v2 {@code
 * hugetlb.<size>.max}; reserved limits v1 {@code hugetlb.<size>.rsvd.limit_in_bytes}, v2 {@code
 * hugetlb.<size>.rsvd.max}. misc (v2): {@code misc.max} lines {@code "resource N"}. unified (v2):
 * each file written as given, after every typed field. network: {@code net_cls.classid} and {@code net_prio.ifpriomap} (v1 only).
 * monitoring: the container's perf_event cgroup (the section needs that hierarchy). children_limit:
 * v2 {@code cgroup.max.descendants}.
 */
final class OtherHandlers {
  /** Huge page sizes the kernel names in hugetlb file names. */
  static final List<String> PAGE_SIZES = List.of("64KB", "2MB", "32MB", "512MB", "1GB", "16GB");

  private OtherHandlers() {}

  static void hugetlb(HugetlbSpec spec, Mode mode, Host host, List<FileWrite> out) {
    if (spec == null && !(mode == Mode.REPLACE && host.has("hugetlb"))) {
      return;
    }
    Hierarchy h = host.require("hugetlb", "hugetlb");
    boolean v2 = Host.isV2(h);
    List<HugetlbLimit> limits = new ArrayList<>(spec == null ? List.of() : spec.limits());
    if (mode != Mode.CREATE) {
      for (HugetlbLimit now : readHugetlb(host, h)) {
        if (limits.stream().noneMatch(l -> l.pageSize().equals(now.pageSize()))) {
          limits.add(new HugetlbLimit(now.pageSize(), -1, now.reservedLimit() == null ? null : -1L));
        }
      }
    }
    for (HugetlbLimit l : limits) {
      out.add(new FileWrite(h, hugetlbFile(l.pageSize(), v2, false), bytes(l.limit(), v2), "hugetlb.limits",
          "the machine has no huge pages of " + l.pageSize()));
      String rsvd = hugetlbFile(l.pageSize(), v2, true);
      Long reserved = l.reservedLimit();
      if (reserved == null && mode == Mode.REPLACE && host.selfHas(h, rsvd)) {
        reserved = -1L;
      }
      if (reserved != null) {
        boolean lacks = mode == Mode.CREATE
            ? host.lacks(h, hugetlbFile(l.pageSize(), v2, false), rsvd)
            : !host.selfHas(h, rsvd);
        if (lacks) {
          throw Host.notOn(h, "hugetlb.limits.reserved_limit", "this kernel has no " + rsvd);
        }
        out.add(new FileWrite(h, rsvd, bytes(reserved, v2), "hugetlb.limits", "reservation limits came with Linux 5.7"));
      }
    }
  }

  private static String bytes(long value, boolean v2) {
    return v2 ? Kernel.v2Bytes(value) : Kernel.v1Bytes(value);
  }

  private static String hugetlbFile(String size, boolean v2, boolean reserved) {
    return "hugetlb." + size + (reserved ? ".rsvd" : "") + (v2 ? ".max" : ".limit_in_bytes");
  }

  /** The page sizes with a finite limit or reserved limit; the reserved one null when unlimited. */
  private static List<HugetlbLimit> readHugetlb(Host host, Hierarchy h) {
    List<HugetlbLimit> out = new ArrayList<>();
    for (String size : PAGE_SIZES) {
      String file = hugetlbFile(size, Host.isV2(h), false);
      if (host.selfHas(h, file)) {
        long limit = Kernel.bytes(host.readSelf(h, file), file);
        String rsvdFile = hugetlbFile(size, Host.isV2(h), true);
        long rsvd = host.selfHas(h, rsvdFile) ? Kernel.bytes(host.readSelf(h, rsvdFile), rsvdFile) : -1;
        if (limit >= 0 || rsvd >= 0) {
          out.add(new HugetlbLimit(size, limit, rsvd >= 0 ? rsvd : null));
        }
      }
    }
    return out;
  }

  static HugetlbSpec readHugetlb(Host host, Set<String> fields) {
    return fields.contains("hugetlb.limits") ? new HugetlbSpec(readHugetlb(host, host.require("hugetlb", "hugetlb")))
        : null;
  }

  static HugetlbSpec normalise(HugetlbSpec spec) {
    return new HugetlbSpec(spec.limits().stream()
        .map(l -> new HugetlbLimit(l.pageSize(), l.limit(), l.reservedLimit() == null || l.reservedLimit() < 0
            ? null : l.reservedLimit()))
        .filter(l -> l.limit() >= 0 || l.reservedLimit() != null).toList());
  }

  static void misc(MiscSpec spec, Mode mode, Host host, List<FileWrite> out) {
    if (spec == null && !(mode == Mode.REPLACE && host.has("misc"))) {
      return;
    }
    Hierarchy h = host.require("misc", "misc");
    List<MiscLimit> limits = new ArrayList<>(spec == null ? List.of() : spec.limits());
    if (mode != Mode.CREATE) {
      for (MiscLimit now : readMisc(host, h)) {
        if (limits.stream().noneMatch(l -> l.resource().equals(now.resource()))) {
          limits.add(new MiscLimit(now.resource(), -1));
        }
      }
    }
    for (MiscLimit l : limits) {
      out.add(new FileWrite(h, "misc.max", l.resource() + " " + Kernel.v2Bytes(l.limit()), "misc.limits"));
    }
  }

  private static List<MiscLimit> readMisc(Host host, Hierarchy h) {
    List<MiscLimit> out = new ArrayList<>();
    for (String line : host.readSelf(h, "misc.max").split("\n")) {
      String[] kv = line.strip().split("\\s+");
      if (kv.length == 2 && !kv[1].equals("max")) {
        out.add(new MiscLimit(kv[0], Kernel.number(kv[1], "misc.max")));
      }
    }
    return out;
  }

  static MiscSpec readMisc(Host host, Set<String> fields) {
    return fields.contains("misc.limits") ? new MiscSpec(readMisc(host, host.require("misc", "misc"))) : null;
  }

  static MiscSpec normalise(MiscSpec spec) {
    return new MiscSpec(spec.limits().stream().filter(l -> l.limit() >= 0).toList());
  }

  /**
   * rdma: {@code rdma.max} lines {@code "mlx4_0 hca_handle=2 hca_object=max"}, both resources
   * written (an absent one unlimited), on v1 and v2; devices limited now and left out of the list
   * go back to unlimited.
   */
  static void rdma(RdmaSpec spec, Mode mode, Host host, List<FileWrite> out) {
    if (spec == null && !(mode == Mode.REPLACE && host.has("rdma"))) {
      return;
    }
    Hierarchy h = host.require("rdma", "rdma.limits");
    List<RdmaLimit> limits = new ArrayList<>(spec == null ? List.of() : spec.limits());
    if (mode != Mode.CREATE) {
      for (RdmaLimit now : readRdma(host, h)) {
        if (limits.stream().noneMatch(l -> l.device().equals(now.device()))) {
          limits.add(new RdmaLimit(now.device(), -1L, -1L));
        }
      }
    }
    for (RdmaLimit l : limits) {
      out.add(new FileWrite(h, "rdma.max", l.device() + " hca_handle=" + maxOr(l.hcaHandle()) + " hca_object="
          + maxOr(l.hcaObject()), "rdma.limits"));
    }
  }

  private static String maxOr(Long v) {
    return v == null || v < 0 ? "max" : v.toString();
  }

  /** The devices with a limit: every line of rdma.max with a number (the kernel lists every device). */
  private static List<RdmaLimit> readRdma(Host host, Hierarchy h) {
    List<RdmaLimit> out = new ArrayList<>();
    for (String line : host.readSelf(h, "rdma.max").split("\n")) {
      String[] f = line.strip().split("\\s+");
      if (f.length < 2) {
        continue;
      }
      long handle = -1;
      long object = -1;
      for (int i = 1; i < f.length; i++) {
        String[] kv = f[i].split("=", 2);
        long v = kv.length < 2 || kv[1].equals("max") ? -1 : Kernel.number(kv[1], "rdma.max");
        if (kv[0].equals("hca_handle")) {
          handle = v;
        } else if (kv[0].equals("hca_object")) {
          object = v;
        }
      }
      if (handle >= 0 || object >= 0) {
        out.add(new RdmaLimit(f[0], handle, object));
      }
    }
    return out;
  }

  static RdmaSpec readRdma(Host host, Set<String> fields) {
    return fields.contains("rdma.limits") ? new RdmaSpec(readRdma(host, host.require("rdma", "rdma.limits"))) : null;
  }

  static RdmaSpec normalise(RdmaSpec spec) {
    return new RdmaSpec(spec.limits().stream()
        .map(l -> new RdmaLimit(l.device(), l.hcaHandle() == null ? -1L : l.hcaHandle(),
            l.hcaObject() == null ? -1L : l.hcaObject()))
        .filter(l -> l.hcaHandle() >= 0 || l.hcaObject() >= 0).toList());
  }

  /** The unified files, last: each controller must be on the unified hierarchy. */
  static void unified(Map<String, String> files, Host host, List<FileWrite> out) {
    if (files.isEmpty()) {
      return;
    }
    for (Map.Entry<String, String> f : files.entrySet()) {
      String field = "unified." + f.getKey();
      String controller = UnifiedFiles.controller(f.getKey());
      Hierarchy h = host.unified().orElseThrow(() -> new LmctfyException(ErrorCode.FAILED_PRECONDITION,
          field + " needs cgroup v2, and no cgroup2 hierarchy is mounted"));
      if (!h.has(controller)) {
        throw Host.notOn(h, field, "the unified hierarchy does not carry the " + controller + " controller");
      }
      out.add(new FileWrite(h, f.getKey(), f.getValue(), field, null, FileWrite.Check.SHOWS_VALUE));
    }
  }

  /** The unified files of {@code fields}, as the kernel shows them now (stripped). */
  static Map<String, String> readUnified(Host host, Set<String> fields) {
    Map<String, String> out = new TreeMap<>();
    for (String f : fields) {
      if (f.startsWith("unified.")) {
        String file = f.substring("unified.".length());
        out.put(file, host.readSelf(host.unified().orElseThrow(), file));
      }
    }
    return out;
  }

  static void network(NetworkSpec spec, Mode mode, Host host, List<FileWrite> out) {
    boolean replace = mode == Mode.REPLACE;
    Long classid = spec == null ? null : spec.classid();
    if (classid != null || replace && host.find("net_cls").isPresent()) {
      Hierarchy h = host.require("net_cls", "network.classid");
      out.add(new FileWrite(h, "net_cls.classid", Long.toString(classid == null ? 0 : classid), "network.classid"));
    }
    List<InterfacePriority> wanted = spec == null ? List.of() : spec.priorities();
    if (!wanted.isEmpty() || mode != Mode.CREATE && host.find("net_prio").isPresent()) {
      Hierarchy h = host.require("net_prio", "network.priorities");
      List<InterfacePriority> all = new ArrayList<>(wanted);
      if (mode != Mode.CREATE) {
        for (InterfacePriority now : readPriorities(host, h)) {
          if (wanted.stream().noneMatch(w -> w.iface().equals(now.iface()))) {
            all.add(new InterfacePriority(now.iface(), 0));
          }
        }
      }
      for (InterfacePriority p : all) {
        out.add(new FileWrite(h, "net_prio.ifpriomap", p.iface() + " " + p.priority(), "network.priorities"));
      }
    }
  }

  private static List<InterfacePriority> readPriorities(Host host, Hierarchy h) {
    List<InterfacePriority> out = new ArrayList<>();
    for (String line : host.readSelf(h, "net_prio.ifpriomap").split("\n")) {
      String[] kv = line.strip().split("\\s+");
      if (kv.length == 2 && !kv[1].equals("0")) {
        out.add(new InterfacePriority(kv[0], Integer.parseInt(kv[1])));
      }
    }
    return out;
  }

  static NetworkSpec readNetwork(Host host, Set<String> fields) {
    Long classid = fields.contains("network.classid")
        ? Kernel.number(host.readSelf(host.require("net_cls", "network.classid"), "net_cls.classid"), "net_cls.classid")
        : null;
    List<InterfacePriority> priorities = fields.contains("network.priorities")
        ? readPriorities(host, host.require("net_prio", "network.priorities")) : List.of();
    return classid == null && !fields.contains("network.priorities") ? null : new NetworkSpec(classid, priorities);
  }

  static NetworkSpec normalise(NetworkSpec spec) {
    return new NetworkSpec(spec.classid(), spec.priorities().stream().filter(p -> p.priority() != 0).toList());
  }

  static void monitoring(MonitoringSpec spec, Host host) {
    if (spec == null) {
      return;
    }
    host.require("perf_event", "monitoring");
    if (spec.enablePerfCounters() != null) {
      throw new LmctfyException(ErrorCode.UNIMPLEMENTED, "monitoring.enable_perf_counters has no kernel switch: the "
          + "container's perf_event cgroup is there; count it with perf -G");
    }
  }

  static void childrenLimit(Long limit, Mode mode, Host host, List<FileWrite> out) {
    if (limit == null && mode != Mode.REPLACE) {
      return;
    }
    Hierarchy unified = host.fs().hierarchies().stream().filter(h -> h.version() == CgroupVersion.V2).findFirst()
        .orElse(null);
    if (limit == null && unified == null) { // a REPLACE where no cgroup2 is: nothing to reset
      return;
    }
    if (unified == null) {
      throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, "children_limit needs cgroup v2's "
          + "cgroup.max.descendants, and no cgroup2 hierarchy is mounted");
    }
    out.add(new FileWrite(unified, "cgroup.max.descendants", limit == null ? "max" : limit.toString(), "children_limit"));
  }

  static Long readChildrenLimit(Host host, Set<String> fields) {
    if (!fields.contains("children_limit")) {
      return null;
    }
    Hierarchy unified = host.fs().hierarchies().stream().filter(h -> h.version() == CgroupVersion.V2).findFirst()
        .orElseThrow();
    String v = host.readSelf(unified, "cgroup.max.descendants");
    return v.equals("max") ? null : Kernel.number(v, "cgroup.max.descendants");
  }
}
