package org.lmctfy.testing.internal.host;

import java.util.Map;
import java.util.Set;

/** The machines the rule's tests decide for, by the names .ci/kernel-vm gives their layouts. */
final class Machines {
  private static final Set<String> ALL_V1 =
      Set.of(
          "cpu",
          "cpuacct",
          "cpuset",
          "memory",
          "blkio",
          "devices",
          "freezer",
          "pids",
          "net_cls",
          "perf_event");
  private static final Set<String> V2_ENABLED = Set.of("cpuset", "cpu", "io", "memory", "pids");

  static final Map<String, HostFacts> BY_NAME =
      Map.of(
          // this project's machine: every v1 controller, a cgroup2 beside them that enables nothing
          "hybrid", new HostFacts(null, ALL_V1, Set.of()),
          "v1", new HostFacts(null, ALL_V1, null),
          // .ci/kernel-vm's v2 guest, as systemd leaves a machine
          "v2", new HostFacts(null, Set.of(), V2_ENABLED),
          "v2-bare", new HostFacts(null, Set.of(), Set.of()),
          // .ci/kernel-vm's systemd guest: systemd 252 as PID 1, as it enables the root's
          // controllers
          "systemd", new HostFacts(null, Set.of(), Set.of("cpu", "io", "memory", "pids"), true),
          // a systemd that enables no cpuset at the root
          "v2-no-cpuset", new HostFacts(null, Set.of(), Set.of("cpu", "io", "memory", "pids")),
          // Debian's 6.12 in the hybrid layout: no v1 memory or cpuset
          "hybrid-6.12",
              new HostFacts(
                  null, Set.of("cpu", "cpuacct", "blkio", "devices", "freezer", "pids"), Set.of()),
          "not-root",
              new HostFacts(
                  "not running as root (uid 65534; creating cgroups needs root, or a delegated subtree)",
                  ALL_V1,
                  Set.of()),
          "read-only",
              new HostFacts(
                  "the cgroup hierarchy at /sys/fs/cgroup is read-only (a container without its own cgroups?)",
                  Set.of(),
                  V2_ENABLED));

  private Machines() {}

  static HostFacts named(String name) {
    HostFacts facts = BY_NAME.get(name);
    if (facts == null) {
      throw new IllegalArgumentException("no machine " + name);
    }
    return facts;
  }
}
