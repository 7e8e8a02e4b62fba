package org.lmctfy;

import java.time.Duration;
import java.util.Objects;
import org.lmctfy.cgroupfs.CgroupPath;

/**
 * How a {@link ContainerApi} is opened: where its root container is and how long it waits. The
 * defaults suit a node agent; a test or an interactive tool may want shorter waits.
 *
 * <pre>{@code
 * ApiOptions options = ApiOptions.builder().lockTimeout(Duration.ofSeconds(5)).build();
 * try (ContainerApi api = ContainerApi.open(options)) {
 *   ...
 * }
 * }</pre>
 *
 * @param root the cgroup that is the root container {@code "/"} in every hierarchy, or null for
 *     the default that {@link ContainerApi#open(org.lmctfy.cgroupfs.CgroupFs)} describes
 * @param lockTimeout how long an operation waits for a container's lock, held by another thread
 *     or process, before DEADLINE_EXCEEDED (default 30 s); a wait longer than a second is logged
 *     at INFO
 * @param killTimeout how long {@code destroy} and {@code killAll} go on killing a container's
 *     processes, and {@code pause} and {@code resume} wait for the freezer, before
 *     DEADLINE_EXCEEDED (default 10 s); a kill loop longer than a second is logged at INFO
 * @since 0.1
 */
public record ApiOptions(CgroupPath root, Duration lockTimeout, Duration killTimeout) {
  /** The defaults: the default root, 30 s for locks, 10 s for kills and the freezer. */
  public static final ApiOptions DEFAULTS = builder().build();

  /**
   * Checks the waits.
   *
   * @param root the root container's cgroup, or null
   * @param lockTimeout how long a lock is waited for
   * @param killTimeout how long processes are killed
   * @throws LmctfyException INVALID_ARGUMENT naming a wait that is null, zero or negative
   */
  public ApiOptions {
    requirePositive("lockTimeout", lockTimeout);
    requirePositive("killTimeout", killTimeout);
  }

  private static void requirePositive(String field, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, "ApiOptions." + field + " must be a positive duration, not " + d);
    }
  }

  /**
   * A builder holding the defaults.
   *
   * @return a builder holding the defaults
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder holding these options, to derive a changed copy.
   *
   * @return a builder holding these options
   */
  public Builder toBuilder() {
    return new Builder().root(root).lockTimeout(lockTimeout).killTimeout(killTimeout);
  }

  /** Builds {@link ApiOptions}; not thread-safe. */
  public static final class Builder {
    private CgroupPath root;
    private Duration lockTimeout = Duration.ofSeconds(30);
    private Duration killTimeout = Duration.ofSeconds(10);

    private Builder() {}

    /**
     * The root container's cgroup; null for the default.
     *
     * @param root the cgroup, or null
     * @return this builder
     */
    public Builder root(CgroupPath root) {
      this.root = root;
      return this;
    }

    /**
     * How long a lock is waited for.
     *
     * @param lockTimeout a positive duration
     * @return this builder
     */
    public Builder lockTimeout(Duration lockTimeout) {
      this.lockTimeout = Objects.requireNonNull(lockTimeout, "lockTimeout");
      return this;
    }

    /**
     * How long processes are killed, and the freezer waited for.
     *
     * @param killTimeout a positive duration
     * @return this builder
     */
    public Builder killTimeout(Duration killTimeout) {
      this.killTimeout = Objects.requireNonNull(killTimeout, "killTimeout");
      return this;
    }

    /**
     * The options.
     *
     * @return the options
     * @throws LmctfyException INVALID_ARGUMENT for a wait that is zero or negative
     */
    public ApiOptions build() {
      return new ApiOptions(root, lockTimeout, killTimeout);
    }
  }
}
