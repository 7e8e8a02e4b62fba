package org.lmctfy;

/**
 * How {@link Container#update(org.lmctfy.spec.ContainerSpec, UpdatePolicy, UpdateOption...)} may go
 * further than it does by default.
 *
 * @since 0.2
 */
public enum UpdateOption {
  /**
   * Lowers {@code memory.limit} even where the container uses more than the new limit, as a resize
   * that must happen. Without it, such an update first asks the kernel to reclaim the difference
   * (v2 {@code memory.reclaim}) and, where the usage stays above the new limit, is refused with
   * FAILED_PRECONDITION naming the usage and the limit, nothing changed, rather than letting the
   * kernel OOM-kill the container's processes. With it, on v2 the limit is written as it is: the
   * kernel reclaims what it can and OOM-kills what it cannot. On v1 the kernel itself refuses a
   * limit it cannot reclaim down to ({@code EBUSY}), with or without this option.
   */
  FORCE_MEMORY_LIMIT
}
