package org.lmctfy.testing;

/**
 * Which hierarchies a {@link FakeCgroupFs} mounts, and where its processes start.
 *
 * @since 0.1
 */
public enum FakeLayout {
  /**
   * What most users run, and the default: a systemd machine on pure cgroup v2, seen from a service
   * with {@code Delegate=yes} that has made room for containers. cgroup2 alone at {@code
   * /sys/fs/cgroup} with cpuset, cpu, io, memory, hugetlb, pids, rdma and misc; the root and {@code
   * /system.slice} enable {@code cpuset cpu io memory pids} in their {@code
   * cgroup.subtree_control}, as systemd does; pid 1 is in {@code /init.scope}. The unit {@code
   * /system.slice/app.service} is as {@code initMachine} with {@code processes_leaf:
   * "lmctfy-supervisor"} and systemd's controllers leaves it: the test's own process ({@link
   * FakeCgroupFs#selfPid()}) in that leaf, the unit enabling the controllers for its children.
   * {@code ContainerApi.open(fs)} roots its containers at the unit, so {@code "/job"} is {@code
   * /sys/fs/cgroup/system.slice/app.service/job}. To test a manager's own start-up, build a {@link
   * #V2} or {@link #V2_BARE} fake and lay out the unit as the test needs.
   */
  SYSTEMD_V2,
  /**
   * Pure cgroup v2 at {@code /sys/fs/cgroup} with cpuset, cpu, io, memory, hugetlb, pids, rdma and
   * misc, all enabled in the root's {@code cgroup.subtree_control} unless the builder says
   * otherwise; every process in the root.
   */
  V2,
  /**
   * Pure cgroup v2 as a kernel boots without systemd: the same controllers, none enabled; every
   * process in the root.
   */
  V2_BARE,
  /**
   * systemd's hybrid mode: v1 cpu, cpuacct, cpuset, memory, devices, freezer, blkio and pids each
   * mounted alone under {@code /sys/fs/cgroup/}, the named {@code name=systemd} hierarchy, and
   * cgroup2 at {@code /sys/fs/cgroup/unified} with no controllers; net_cls, net_prio and perf_event
   * are left for {@link FakeCgroupFs#mount}.
   */
  HYBRID,
  /**
   * Hybrid, with hugetlb on the cgroup2 at {@code /sys/fs/cgroup/unified} instead of v1 (the
   * machine lmctfy for Java is developed on).
   */
  HYBRID_HUGETLB_V2,
  /** The v1 hierarchies of {@link #HYBRID} and no cgroup2 mount; hugetlb is unmounted too. */
  V1,
  /**
   * A container of a Kubernetes pod with writable cgroups ({@code securityContext.cgroupOptions
   * .mountMode: Writable}, KEP-5474), seen from inside: cgroup2 alone at {@code /sys/fs/cgroup},
   * mounted with {@code nsdelegate}, whose root {@code /} is the root of the container's cgroup
   * namespace, the container's own cgroup, holding its processes (pid 1 and the test's). Its
   * ancestors are the kubelet's and cannot be seen, but they act as the kernel makes them act: they
   * enable every controller for the container, and the pod's cgroup carries the kubelet's {@code
   * cgroup.max.descendants} 250 and {@code cgroup.max.depth} 50, which count the cgroups of the
   * pod's sandbox and of the container too (so 248 cgroups can be made below {@code /}, 49 levels
   * deep). As {@code nsdelegate} makes it, the root is delegated to its processes, which may write
   * its {@code cgroup.procs}, {@code cgroup.threads} and {@code cgroup.subtree_control} and no
   * other file of it (EPERM: its limits are the pod's). {@code ContainerApi.open(fs)} roots its
   * containers at {@code /}, as in a pod.
   *
   * @since 0.2
   */
  KUBERNETES_POD
}
