package org.lmctfy.testing;

/**
 * Which hierarchies a {@link FakeCgroupFs} mounts.
 *
 * @since 0.1
 */
public enum FakeLayout {
  /**
   * The machine lmctfy for Java is developed on: v1 cpu, cpuacct, cpuset, memory, devices, freezer,
   * blkio and pids each mounted alone under {@code /sys/fs/cgroup/}, the named {@code name=systemd}
   * hierarchy, and cgroup2 at {@code /sys/fs/cgroup/unified} carrying only hugetlb; net_cls, net_prio
   * and perf_event are left for {@link FakeCgroupFs#mount}.
   */
  THIS_MACHINE,
  /** The same v1 hierarchies and no cgroup2 mount; hugetlb is unmounted too. */
  V1,
  /**
   * Only cgroup2, at {@code /sys/fs/cgroup}, with cpuset, cpu, io, memory, hugetlb, pids, rdma and
   * misc, all enabled in the root's {@code cgroup.subtree_control} unless the builder says otherwise.
   */
  V2,
  /** systemd's hybrid mode: the v1 hierarchies plus cgroup2 at {@code /sys/fs/cgroup/unified} with no controllers. */
  HYBRID
}
