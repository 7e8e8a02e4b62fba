package org.lmctfy.internal.notify;

import java.util.List;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The cgroups of the container a registration watches: the same path in each managed hierarchy.
 *
 * @param fs the cgroup filesystem
 * @param managed the hierarchies the container occupies
 * @param anchor the one whose cgroup carries the markers (and tells that the container is gone)
 * @param path the container's cgroup in each of them
 */
public record ContainerCgroups(
    CgroupFs fs, List<Hierarchy> managed, Hierarchy anchor, CgroupPath path) {}
