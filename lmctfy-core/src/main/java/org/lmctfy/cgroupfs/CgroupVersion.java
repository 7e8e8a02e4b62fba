package org.lmctfy.cgroupfs;

/** The two cgroup interfaces the kernel offers. @since 0.1 */
public enum CgroupVersion {
  /** One hierarchy per mount, each with its own controllers ({@code cgroup} filesystem). */
  V1,
  /** The unified hierarchy ({@code cgroup2} filesystem). */
  V2
}
