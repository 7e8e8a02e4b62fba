package org.lmctfy;

import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.internal.driver.Drivers;
import org.lmctfy.internal.facade.ContainerApiImpl;
import org.lmctfy.internal.kernel.KernelCgroupFs;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.systemdbus.SystemdConnector;

/**
 * The entry point: creates, finds and destroys containers, each a set of cgroups (one per hierarchy
 * the container occupies) with the same name.
 *
 * <p>Container names are lmctfy's: {@code "/"} is the root, {@code "/a/b"} is a child of {@code
 * "/a"}; a relative name is resolved against the caller's own container.
 *
 * <p>Open one per process with {@link #open()} for the host, or {@link #open(CgroupFs)} over any
 * backend (such as the {@code FakeCgroupFs} of {@code lmctfy-testing}); close it when done: that
 * ends every notification and thread it started. Thread-safe.
 *
 * <pre>{@code
 * try (ContainerApi api = ContainerApi.open()) {
 *   Container job = api.create("/job", ContainerSpec.parse("cpu { limit: 500 } memory { limit: 104857600 }"));
 *   ...
 *   job.destroy();
 * }
 * }</pre>
 *
 * @since 0.1
 */
public interface ContainerApi extends AutoCloseable {

  /**
   * Opens the host's cgroups (found from {@code /proc/self/mountinfo} and {@code
   * /proc/self/cgroup}) with the driver {@link ApiOptions.Driver#AUTO} chooses. Where systemd runs
   * the machine on cgroup v2 that is the systemd driver: the cgroup of this process's own unit when
   * systemd delegated it ({@code Delegate=yes}), else a transient service with {@code Delegate=yes}
   * ({@code lmctfy.service}) that the first create asks the system manager (root) or the user's own
   * manager (anyone else) for, through {@code lmctfy-systemd}. Elsewhere the cgroupfs driver, with
   * the root {@link #open(CgroupFs)} describes. Opening reads only: it makes nothing, and a read
   * ({@code exists}, {@code get}, {@code list}, {@code spec}, {@code stats}, {@code detect}) makes
   * nothing either.
   *
   * @throws LmctfyException FAILED_PRECONDITION if no cgroup hierarchy can be found or read
   */
  static ContainerApi open() {
    return open(ApiOptions.DEFAULTS);
  }

  /**
   * {@link #open()} with {@code options}: a driver, a root of its own, other waits.
   *
   * @param options the driver, the root and the waits
   * @throws LmctfyException FAILED_PRECONDITION if no cgroup hierarchy can be found or read, or if
   *     the SYSTEMD driver is asked for where PID 1 is not systemd or the controllers are not on
   *     cgroup v2, or without {@code lmctfy-systemd} where systemd did not delegate this process's
   *     unit
   */
  static ContainerApi open(ApiOptions options) {
    CgroupFs fs;
    try {
      fs = hostCgroupFs();
    } catch (IOException e) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION, "cannot open the host's cgroups: " + e.getMessage(), e);
    }
    return open(fs, options);
  }

  /**
   * The host's cgroup filesystem, the kernel backend that {@link #open()} works on: every hierarchy
   * mounted in this process's mount namespace, found from {@code /proc/self/mountinfo} and {@code
   * /proc/self/cgroup}. For tools that use the {@link CgroupFs} SPI directly.
   *
   * @throws IOException if those files cannot be read or no cgroup hierarchy is mounted
   */
  static CgroupFs hostCgroupFs() throws IOException {
    return KernelCgroupFs.discover();
  }

  /**
   * Opens containers over {@code fs}, with the root container where this process may make
   * containers: where the controllers live on cgroup v2 (no v1 hierarchy carries one), the cgroup
   * this process runs in (a systemd unit's, a delegated subtree), so that containers are never made
   * beside {@code system.slice} unless asked for with {@link #open(CgroupFs, CgroupPath)}; on v1
   * and hybrid machines, each hierarchy's mount root. Over {@link #hostCgroupFs()} this is {@link
   * #open()}, with its driver; over any other backend it is the cgroupfs driver.
   *
   * <p>cgroup v2 lets only a cgroup without processes enable controllers for its children. Where
   * that cgroup was delegated to this process (systemd marks a {@code Delegate=yes} unit's cgroup
   * {@code user.delegate}; the root of a cgroup namespace, as in a Kubernetes pod, is delegated by
   * the namespace), the first create moves its processes into the processes leaf {@code
   * lmctfy-supervisor} first, as systemd advises a delegated manager. Elsewhere (a unit without
   * {@code Delegate=yes}) a create that needs a controller is FAILED_PRECONDITION naming the rule,
   * until {@link #initMachine} with {@code processes_leaf} has moved them.
   *
   * @param fs the cgroup filesystem
   * @throws LmctfyException UNAVAILABLE if this process's cgroup cannot be read
   */
  static ContainerApi open(CgroupFs fs) {
    return open(fs, ApiOptions.DEFAULTS);
  }

  /**
   * Opens containers over {@code fs} whose root container {@code "/"} is the cgroup {@code root} in
   * every hierarchy: no container name resolves outside it. For tools that own one subtree of a
   * machine, and for tests that work under a scratch parent.
   *
   * @param fs the cgroup filesystem
   * @param root the cgroup that is the root container in every hierarchy
   */
  static ContainerApi open(CgroupFs fs, CgroupPath root) {
    return open(
        fs, ApiOptions.builder().root(java.util.Objects.requireNonNull(root, "root")).build());
  }

  /**
   * Opens containers over {@code fs} with {@code options}: their driver and root, and their waits.
   *
   * @param fs the cgroup filesystem
   * @param options the driver, the root and the waits
   * @throws LmctfyException UNAVAILABLE if the default root is asked for and this process's cgroup
   *     cannot be read; FAILED_PRECONDITION as {@link #open(ApiOptions)} says for the SYSTEMD
   *     driver
   */
  static ContainerApi open(CgroupFs fs, ApiOptions options) {
    java.util.Objects.requireNonNull(fs, "fs");
    java.util.Objects.requireNonNull(options, "options");
    return new ContainerApiImpl(fs, Drivers.open(fs, options, null), options);
  }

  /**
   * Opens containers over {@code fs} with the systemd driver and the manager {@code systemd}: for
   * tests of code that runs under systemd, with {@code lmctfy-testing}'s {@code FakeSystemd} over a
   * {@code FakeCgroupFs}, or for a connector of one's own. The driver is as {@link
   * ApiOptions.Driver#SYSTEMD} says, with the manager given.
   *
   * <pre>{@code
   * FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
   * FakeSystemd systemd = FakeSystemd.on(fs);
   * try (ContainerApi api = ContainerApi.open(fs, systemd, ApiOptions.DEFAULTS)) {
   *   api.create("/job", spec);                   // in /system.slice/lmctfy.service/job
   * }
   * }</pre>
   *
   * @param fs the cgroup filesystem the manager's units live in
   * @param systemd the manager
   * @param options the waits, the unit's name; the driver AUTO or SYSTEMD, and no root
   * @throws LmctfyException INVALID_ARGUMENT for the CGROUPFS driver; FAILED_PRECONDITION if the
   *     controllers of {@code fs} are not on cgroup v2
   */
  static ContainerApi open(CgroupFs fs, SystemdConnector systemd, ApiOptions options) {
    java.util.Objects.requireNonNull(fs, "fs");
    java.util.Objects.requireNonNull(systemd, "systemd");
    java.util.Objects.requireNonNull(options, "options");
    return new ContainerApiImpl(fs, Drivers.open(fs, options, systemd), options);
  }

  /** The cgroup that is the root container {@code "/"} in every hierarchy. */
  CgroupPath root();

  /** The cgroup filesystem this API works on. */
  CgroupFs cgroupFs();

  /**
   * Creates the container {@code name} with the resources of {@code spec}: one cgroup per managed
   * hierarchy, its limits written. Checks the name and the whole spec against this host before it
   * changes anything; a failure half-way undoes every step (see docs/guarantees.md).
   *
   * @param name the container's name
   * @throws LmctfyException INVALID_ARGUMENT for a bad name or a value the kernel refuses;
   *     ALREADY_EXISTS if the container, or a cgroup lmctfy did not make, is at the name; NOT_FOUND
   *     if the parent container does not exist; FAILED_PRECONDITION if a section's controller is
   *     not there or the machine's state forbids it (the v2 no-internal-processes rule);
   *     PERMISSION_DENIED without the privilege; DEADLINE_EXCEEDED if the parent's or the name's
   *     lock is not free within {@link ApiOptions#lockTimeout()}; others by the errno table, the
   *     file and errno named
   */
  Container create(String name, ContainerSpec spec);

  /**
   * Creates a container that destroys itself when the handle closes, unless committed: for code
   * that must not leave a container behind on any path out of a block.
   *
   * @param name the container's name
   */
  default ResourceHandle<Container> createHandle(String name, ContainerSpec spec) {
    Container c = create(name, spec);
    return ResourceHandle.of(c, "container " + c.name(), c::destroy);
  }

  /**
   * The existing container {@code name}.
   *
   * @param name the container's name
   * @throws LmctfyException INVALID_ARGUMENT for a bad name; NOT_FOUND if there is none, or if its
   *     create or destroy is in progress or was cut short (the message says which);
   *     FAILED_PRECONDITION if it is partial (present in some hierarchies only), naming where
   */
  Container get(String name);

  /**
   * The stats of many containers at once, in the order given: what a monitoring agent scrapes.
   * Costs one read per stat file of each container, as raw reads would; no lock is taken. A
   * container that does not exist is NOT_FOUND for the whole call.
   *
   * @param names the containers' names
   * @param type SUMMARY or FULL
   */
  Map<String, ContainerStats> stats(Collection<String> names, StatsType type);

  /**
   * Whether the container {@code name} exists.
   *
   * @param name the container's name
   */
  boolean exists(String name);

  /**
   * {@code spec} as {@link Container#spec()} will report it once a container of this API has it:
   * values as this host's kernel stores them (memory rounded down to pages, cpu weights converted
   * on v2, device rules merged). {@code create(name, s).spec()} equals {@code normalise(s)}.
   */
  ContainerSpec normalise(ContainerSpec spec);

  /**
   * Destroys the container {@code name}, its subcontainers and its processes (killed within {@link
   * ApiOptions#killTimeout()}); also finishes one a dead process left half-made. A destroy that
   * fails can be called again to finish.
   *
   * @param name the container's name
   * @throws LmctfyException INVALID_ARGUMENT for a bad name; NOT_FOUND if there is none;
   *     FAILED_PRECONDITION for the root, or a container holding cgroups lmctfy did not make;
   *     DEADLINE_EXCEEDED if its lock is not free in time or its processes survive SIGKILL, naming
   *     them; others by the errno table, the file and errno named
   */
  void destroy(String name);

  /**
   * The name of the container process {@code pid} is in ({@code 0}: this process).
   *
   * @param pid the process id
   */
  String detect(long pid);

  /**
   * Prepares the machine: mounts the v1 hierarchies {@code spec} asks for that are not mounted, and
   * enables the v2 controllers it asks for in every {@code cgroup.subtree_control} from the unified
   * root down to the container root. Idempotent; a failure half-way undoes what this call did
   * before it throws.
   */
  void initMachine(InitSpec spec);

  /**
   * Finds containers left partial or unfinished under the root and removes them. Under the systemd
   * driver's own unit, stops that unit when it holds no container (systemd removes its cgroups; the
   * next create starts it again). Safe to call at any time, alongside any other operation, in any
   * number of processes.
   */
  CleanupReport cleanup();

  /**
   * Ends every notification registration and thread this API started; under the systemd driver, if
   * this API created, destroyed or prepared anything, stops its unit where it holds no container
   * (one D-Bus call, under the root's lock, so that no create in another process is undercut); then
   * closes its lock file and its connection to systemd.
   *
   * @throws LmctfyException where the unit could not be stopped (everything else is closed first)
   */
  @Override
  void close();
}
