package org.lmctfy.testing.internal.fake;

import java.util.Comparator;
import java.util.List;

/** The kernel's controller names in its subsystem order (the order /proc/cgroups lists them). */
final class Subsystems {
  static final List<String> KERNEL_ORDER =
      List.of(
          "cpuset",
          "cpu",
          "cpuacct",
          "io",
          "blkio",
          "memory",
          "devices",
          "freezer",
          "net_cls",
          "perf_event",
          "net_prio",
          "hugetlb",
          "pids",
          "rdma",
          "misc");
  static final Comparator<String> ORDER = Comparator.comparingInt(Subsystems::rank);

  private Subsystems() {}

  private static int rank(String name) {
    int i = KERNEL_ORDER.indexOf(name);
    return i < 0 ? Integer.MAX_VALUE : i;
  }
}
