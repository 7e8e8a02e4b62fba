package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.HugetlbSpec;
import org.lmctfy.spec.HugetlbSpec.HugetlbLimit;
import org.lmctfy.spec.MonitoringSpec;
import org.lmctfy.spec.NetworkSpec;
import org.lmctfy.spec.NetworkSpec.InterfacePriority;

/**
 * The small sections. hugetlb: v1 {@code hugetlb.<size>.limit_in_bytes}, v2 {@code
 * hugetlb.<size>.max}. network: {@code net_cls.classid} and {@code net_prio.ifpriomap} (v1 only).
 * monitoring: the container's perf_event cgroup (the section needs that hierarchy). children_limit:
 * v2 {@code cgroup.max.descendants}.
 */
final class OtherHandlers {
  /** Huge page sizes the kernel names in hugetlb file names. */
  static final List<String> PAGE_SIZES = List.of("64KB", "2MB", "32MB", "512MB", "1GB", "16GB");

  private OtherHandlers() {}

  static void hugetlb(HugetlbSpec spec, Mode mode, Host host, List<FileWrite> out) {
    if (spec == null && !(mode == Mode.REPLACE && host.find("hugetlb").isPresent())) {
      return;
    }
    Hierarchy h = host.require("hugetlb", "hugetlb");
    List<HugetlbLimit> limits = new ArrayList<>(spec == null ? List.of() : spec.limits());
    if (mode != Mode.CREATE) {
      for (HugetlbLimit now : readHugetlb(host, h)) {
        if (limits.stream().noneMatch(l -> l.pageSize().equals(now.pageSize()))) {
          limits.add(new HugetlbLimit(now.pageSize(), -1));
        }
      }
    }
    for (HugetlbLimit l : limits) {
      boolean v2 = Host.isV2(h);
      out.add(new FileWrite(h, hugetlbFile(l.pageSize(), v2), v2 ? Kernel.v2Bytes(l.limit()) : Kernel.v1Bytes(l.limit()),
          "hugetlb.limits"));
    }
  }

  private static String hugetlbFile(String size, boolean v2) {
    return "hugetlb." + size + (v2 ? ".max" : ".limit_in_bytes");
  }

  private static List<HugetlbLimit> readHugetlb(Host host, Hierarchy h) {
    List<HugetlbLimit> out = new ArrayList<>();
    for (String size : PAGE_SIZES) {
      String file = hugetlbFile(size, Host.isV2(h));
      if (host.selfHas(h, file)) {
        long limit = Kernel.bytes(host.readSelf(h, file), file);
        if (limit >= 0) {
          out.add(new HugetlbLimit(size, limit));
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
    return new HugetlbSpec(spec.limits().stream().filter(l -> l.limit() >= 0).toList());
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
    Hierarchy unified = host.fs().hierarchies().stream().filter(h -> h.version() == CgroupVersion.V2).findFirst()
        .orElse(null);
    if (limit == null && !(mode == Mode.REPLACE && unified != null)) {
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
