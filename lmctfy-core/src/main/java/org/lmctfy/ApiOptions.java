package org.lmctfy;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.lmctfy.cgroupfs.CgroupPath;

/**
 * How a {@link ContainerApi} is opened: which driver finds its root container, where that root is,
 * and how long it waits. The defaults suit a node agent; a test or an interactive tool may want
 * shorter waits.
 *
 * <pre>{@code
 * ApiOptions options = ApiOptions.builder().lockTimeout(Duration.ofSeconds(5)).build();
 * try (ContainerApi api = ContainerApi.open(options)) {
 *   ...
 * }
 * }</pre>
 *
 * @param root the cgroup that is the root container {@code "/"} in every hierarchy, or null for the
 *     default that the {@code driver} chooses; a root given is the cgroupfs driver's
 * @param lockTimeout how long an operation waits for a container's lock, held by another thread or
 *     process, before DEADLINE_EXCEEDED (default 30 s); a wait longer than a second is logged at
 *     INFO
 * @param killTimeout how long {@code destroy} and {@code killAll} go on killing a container's
 *     processes, and {@code pause} and {@code resume} wait for the freezer, before
 *     DEADLINE_EXCEEDED (default 10 s); a kill loop longer than a second is logged at INFO
 * @param driver who gives the API its root container: {@link Driver#AUTO} (the default), {@link
 *     Driver#SYSTEMD} or {@link Driver#CGROUPFS}
 * @param systemdUnit the name of the transient service the systemd driver asks the manager for,
 *     which holds the API's containers (default {@code lmctfy.service}): letters, digits and {@code
 *     :_.-}, ending in {@code .service}; APIs with the same name share it
 * @param systemdTimeout how long each call to a systemd manager, and each wait for one of its jobs,
 *     may take before DEADLINE_EXCEEDED (default 30 s)
 * @since 0.1
 */
public record ApiOptions(
    @Nullable CgroupPath root,
    Duration lockTimeout,
    Duration killTimeout,
    Driver driver,
    String systemdUnit,
    Duration systemdTimeout) {
  /**
   * The defaults: AUTO with its root, 30 s for locks, 10 s for kills and the freezer, 30 s for
   * systemd.
   */
  public static final ApiOptions DEFAULTS = builder().build();

  /** The systemd driver's unit unless {@link Builder#systemdUnit} says otherwise. */
  public static final String DEFAULT_SYSTEMD_UNIT = "lmctfy.service";

  /**
   * Who gives a {@link ContainerApi} its root container: the cgroup under which it makes
   * containers, and what it takes to keep it.
   *
   * @since 0.1
   */
  public enum Driver {
    /**
     * {@link #SYSTEMD} for the host's cgroups where PID 1 is systemd ({@code /run/systemd/system}
     * exists) and the controllers are on cgroup v2, unless a root is given; {@link #CGROUPFS}
     * otherwise, and always over a {@code CgroupFs} passed to {@code open} other than {@link
     * ContainerApi#hostCgroupFs()}.
     */
    AUTO,
    /**
     * systemd is the single writer of its tree, so containers live in a cgroup it delegated: the
     * unit this process runs in when systemd delegated it ({@code Delegate=yes}), else a transient
     * service ({@link ApiOptions#systemdUnit()}, {@code Delegate=yes}) that the API asks the system
     * manager (root) or the user's own manager (anyone else) for at its first create, over D-Bus
     * through {@code lmctfy-systemd}. FAILED_PRECONDITION where PID 1 is not systemd or the
     * controllers are not on cgroup v2.
     */
    SYSTEMD,
    /**
     * The cgroups as they are: the root given, or this process's cgroup on cgroup v2 and the mount
     * roots on v1 and hybrid machines (see {@link
     * ContainerApi#open(org.lmctfy.cgroupfs.CgroupFs)}).
     */
    CGROUPFS
  }

  /**
   * Checks the waits and the unit's name.
   *
   * @throws LmctfyException INVALID_ARGUMENT naming a wait that is null, zero or negative, a null
   *     driver, a unit name systemd would refuse or that is no service, or a root given with the
   *     systemd driver (its root is its unit's cgroup)
   */
  public ApiOptions {
    requirePositive("lockTimeout", lockTimeout);
    requirePositive("killTimeout", killTimeout);
    requirePositive("systemdTimeout", systemdTimeout);
    if (driver == null) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "ApiOptions.driver must be AUTO, SYSTEMD or CGROUPFS, not null");
    }
    if (systemdUnit == null || !systemdUnit.matches("[A-Za-z0-9:_.\\\\-]{1,248}\\.service")) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "ApiOptions.systemdUnit must be a service's name (letters, "
              + "digits and :_.-\\ ending in .service, at most 256 characters), not "
              + systemdUnit);
    }
    if (root != null && driver == Driver.SYSTEMD) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "ApiOptions: a root ("
              + root
              + ") and the SYSTEMD driver "
              + "exclude each other: the systemd driver's root is the cgroup systemd delegated; give CGROUPFS or AUTO "
              + "with a root");
    }
  }

  private static void requirePositive(String field, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "ApiOptions." + field + " must be a positive duration, not " + d);
    }
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these options, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder()
        .root(root)
        .lockTimeout(lockTimeout)
        .killTimeout(killTimeout)
        .driver(driver)
        .systemdUnit(systemdUnit)
        .systemdTimeout(systemdTimeout);
  }

  /** Builds {@link ApiOptions}; not thread-safe. */
  public static final class Builder {
    private @Nullable CgroupPath root;
    private Duration lockTimeout = Duration.ofSeconds(30);
    private Duration killTimeout = Duration.ofSeconds(10);
    private Driver driver = Driver.AUTO;
    private String systemdUnit = DEFAULT_SYSTEMD_UNIT;
    private Duration systemdTimeout = Duration.ofSeconds(30);

    private Builder() {}

    /**
     * The root container's cgroup; null for the driver's default.
     *
     * @param root the cgroup, or null
     */
    public Builder root(@Nullable CgroupPath root) {
      this.root = root;
      return this;
    }

    /**
     * How long a lock is waited for.
     *
     * @param lockTimeout a positive duration
     */
    public Builder lockTimeout(Duration lockTimeout) {
      this.lockTimeout = Objects.requireNonNull(lockTimeout, "lockTimeout");
      return this;
    }

    /**
     * How long processes are killed, and the freezer waited for.
     *
     * @param killTimeout a positive duration
     */
    public Builder killTimeout(Duration killTimeout) {
      this.killTimeout = Objects.requireNonNull(killTimeout, "killTimeout");
      return this;
    }

    /**
     * Who gives the API its root container.
     *
     * @param driver AUTO, SYSTEMD or CGROUPFS
     */
    public Builder driver(Driver driver) {
      this.driver = Objects.requireNonNull(driver, "driver");
      return this;
    }

    /**
     * The transient service the systemd driver asks for.
     *
     * @param systemdUnit a service's name, such as {@code lmctfy.service}
     */
    public Builder systemdUnit(String systemdUnit) {
      this.systemdUnit = Objects.requireNonNull(systemdUnit, "systemdUnit");
      return this;
    }

    /**
     * How long each call to systemd, and each wait for one of its jobs, may take.
     *
     * @param systemdTimeout a positive duration
     */
    public Builder systemdTimeout(Duration systemdTimeout) {
      this.systemdTimeout = Objects.requireNonNull(systemdTimeout, "systemdTimeout");
      return this;
    }

    /**
     * The options.
     *
     * @throws LmctfyException INVALID_ARGUMENT as the record's constructor says
     */
    public ApiOptions build() {
      return new ApiOptions(root, lockTimeout, killTimeout, driver, systemdUnit, systemdTimeout);
    }
  }
}
