package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.ResourceHandle;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.process.Freezer;
import org.lmctfy.internal.process.ProcessKiller;
import org.lmctfy.internal.process.RunCommand;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.FilesystemSpec;
import org.lmctfy.spec.VirtualHostSpec;
import org.lmctfy.vhost.Blueprint;
import org.lmctfy.vhost.ProcessId;
import org.lmctfy.vhost.VirtualHosts;

/**
 * What the lifecycle knows of virtual hosts (lmctfy's {@code virtual_host}): the rules a spec must
 * follow (top-level only, no delegation, loopback-only networks, no private mounts), the start of
 * the init inside create's transaction, and the two markers on the container's anchor cgroup that
 * record it: {@code vhost}, the spec's {@code virtual_host} and {@code filesystem} (JSON), for
 * {@code spec()} and for starting the init again; {@code vhost_init}, the init's {@link ProcessId}
 * (pid and start time). Both go with the cgroup. Markers are believed only on a directory of root's
 * or of the API's uid, the library's one rule.
 */
final class VirtualHostKeeper {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(VirtualHostKeeper.class);

  /** The {@code virtual_host} and {@code filesystem} sections, as JSON. */
  static final String SPEC_KEY = "vhost";

  /** The init's pid and start time. */
  static final String INIT_KEY = "vhost_init";

  private final Layout layout;
  private final CgroupFs fs;
  private final ProcessKiller killer;
  private final Function<ContainerName, ContainerLocks.Held> locks;

  /**
   * A virtual host as its container records it.
   *
   * @param name the container that is the virtual host (a top-level one)
   * @param blueprint what it is made of, from its {@code virtual_host} and {@code filesystem}
   * @param init its init, or null if none was recorded
   */
  record Record(ContainerName name, Blueprint blueprint, ProcessId init) {}

  VirtualHostKeeper(
      Layout layout, ProcessKiller killer, Function<ContainerName, ContainerLocks.Held> locks) {
    this.layout = layout;
    this.fs = layout.fs();
    this.killer = killer;
    this.locks = locks;
  }

  /** The backend's virtual hosts; UNIMPLEMENTED for one without. */
  VirtualHosts vhosts() {
    return fs.virtualHosts()
        .orElseThrow(
            () ->
                new LmctfyException(
                    ErrorCode.UNIMPLEMENTED,
                    "virtual_host: this cgroup filesystem (" + fs + ") cannot make virtual hosts"));
  }

  /** Checks a spec for create before anything is touched: the rules, then the machine. */
  void check(ContainerName name, ContainerSpec spec) throws IOException {
    VirtualHostSpec host = spec.virtualHost();
    if (host == null) {
      return;
    }
    String what = "create " + name + ": virtual_host";
    if (!name.parent().isRoot()) {
      throw new LmctfyException(
          ErrorCode.UNIMPLEMENTED,
          what
              + ": only a top-level container can be a virtual host"
              + " (as in lmctfy); "
              + name
              + " is below "
              + name.parent());
    }
    if (spec.owner() != null || spec.ownerGroup() != null) {
      throw new LmctfyException(
          ErrorCode.UNIMPLEMENTED,
          what
              + " with "
              + (spec.owner() != null ? "owner" : "owner_group")
              + ": a delegated virtual host is not implemented (its tenant could rewrite the record "
              + "of its init); a tenant makes its own, in its delegated subtree");
    }
    VirtualHostSpec.Network net = host.network();
    if (net != null && !net.isLoopbackOnly()) {
      String field =
          net.iface() != null
              ? "interface"
              : net.connection() != null ? "connection" : "virtual_ip";
      throw new LmctfyException(
          ErrorCode.UNIMPLEMENTED,
          "create "
              + name
              + ": virtual_host.network."
              + field
              + ": only a loopback network (network {}) is implemented; an interface moved in, a veth pair, a bridge "
              + "or an address are not");
    }
    if (spec.filesystem() != null) {
      for (int i = 0; i < spec.filesystem().mountList().size(); i++) {
        if (Boolean.TRUE.equals(spec.filesystem().mountList().get(i).isPrivate())) {
          throw new LmctfyException(
              ErrorCode.UNIMPLEMENTED,
              "create "
                  + name
                  + ": filesystem.mounts.mount["
                  + i
                  + "].private: bubblewrap makes every mount of a virtual host a slave of the host's; private "
                  + "propagation is not implemented");
        }
      }
    }
    try {
      vhosts().check(blueprint(spec));
    } catch (LmctfyException e) {
      throw new LmctfyException(e.code(), "create " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * In create's transaction, after the limits: records the spec, starts the init in the container's
   * cgroups, records it. Undone by killing everything in the container.
   */
  void start(ContainerName name, ContainerSpec spec, Transaction tx) throws IOException {
    if (spec.virtualHost() == null) {
      return;
    }
    CgroupPath path = layout.path(name);
    fs.setMarker(layout.anchor(), path, SPEC_KEY, sections(spec).toJson());
    ProcessId init = vhosts().start(blueprint(spec), cgroups(name));
    tx.add(
        ResourceHandle.of(
            path,
            () -> "the virtual host's init " + init.pid(),
            () -> killer.killAll(layout.managed(), path)));
    fs.setMarker(layout.anchor(), path, INIT_KEY, init.toString());
  }

  /**
   * What the backend makes the virtual host of {@code spec} of: its {@code virtual_host} and {@code
   * filesystem} in the SPI's terms (the rules of {@link #check} already applied; the init's paths
   * checked by {@link RunCommand#initOf}).
   */
  private static Blueprint blueprint(ContainerSpec spec) {
    VirtualHostSpec host = spec.virtualHost();
    FilesystemSpec filesystem = spec.filesystem();
    List<Blueprint.Bind> binds = new ArrayList<>();
    if (filesystem != null) {
      for (FilesystemSpec.Mount m : filesystem.mountList()) {
        binds.add(
            new Blueprint.Bind(m.source(), m.insidePath(), Boolean.TRUE.equals(m.readOnly())));
      }
    }
    return new Blueprint(
        host.virtualHostname(),
        host.network() != null,
        filesystem == null ? null : filesystem.rootfs(),
        binds,
        RunCommand.initOf(host.init()));
  }

  private static ContainerSpec sections(ContainerSpec spec) {
    return ContainerSpec.builder()
        .virtualHost(spec.virtualHost())
        .filesystem(spec.filesystem())
        .build();
  }

  /** One cgroup per managed hierarchy: the container's. */
  Map<Hierarchy, CgroupPath> cgroups(ContainerName name) {
    Map<Hierarchy, CgroupPath> cgroups = new LinkedHashMap<>();
    layout.managed().forEach(h -> cgroups.put(h, layout.path(name)));
    return cgroups;
  }

  /**
   * The virtual host {@code name} is in: its own, or its top-level ancestor's; empty for a
   * container in none.
   *
   * @throws LmctfyException FAILED_PRECONDITION when the record is on a directory whose markers are
   *     not believed (a tenant's): joining a tenant's namespaces is refused, not guessed at
   */
  Optional<Record> of(ContainerName name) throws IOException {
    if (name.isRoot()) {
      return Optional.empty();
    }
    ContainerName top = ContainerName.root().child(name.components().get(0));
    CgroupPath path = layout.path(top);
    Optional<String> spec = marker(path, SPEC_KEY);
    if (spec.isEmpty()) {
      return Optional.empty();
    }
    if (!layout.trusted(path)) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          top
              + " carries a virtual host's record on "
              + Layout.describe(layout.anchor(), path)
              + ", a directory of uid "
              + layout.ownerOf(path)
              + " whose markers "
              + "uid "
              + fs.effectiveUid()
              + " does not believe; a process is never started in namespaces its tenant "
              + "names (run it as uid "
              + layout.ownerOf(path)
              + ")");
    }
    ContainerSpec sections = ContainerSpec.parse(spec.get());
    return Optional.of(new Record(top, blueprint(sections), init(path)));
  }

  private ProcessId init(CgroupPath path) throws IOException {
    Optional<String> init = marker(path, INIT_KEY);
    try {
      return init.map(ProcessId::parse).orElse(null);
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "{}: the marker {}={} is no process id; a new init will be started",
          path,
          INIT_KEY,
          init.get());
      return null;
    }
  }

  /**
   * The running init of {@code record}: the recorded one, or, when it no longer runs (a killAll, or
   * it ended), a new one started under the container's lock with the recorded spec (new namespaces:
   * the virtual host is booted again).
   *
   * @throws LmctfyException FAILED_PRECONDITION if the init is gone while the container is paused
   */
  ProcessId running(Record record) throws IOException {
    VirtualHosts vhosts = vhosts();
    if (record.init() != null && vhosts.isRunning(record.init())) {
      return record.init();
    }
    try (ContainerLocks.Held held = locks.apply(record.name())) {
      CgroupPath path = layout.path(record.name());
      if (!fs.exists(layout.anchor(), path)) {
        throw new LmctfyException(
            ErrorCode.NOT_FOUND, "container " + record.name() + " does not exist");
      }
      ProcessId now = init(path);
      if (now != null && vhosts.isRunning(now)) {
        return now;
      }
      Map<Hierarchy, CgroupPath> cgroups = cgroups(record.name());
      if (Freezer.isFrozen(fs, cgroups)) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            "virtual host "
                + record.name()
                + " is paused and "
                + "its init "
                + (now == null ? "" : now.pid() + " ")
                + "is not running; resume it, and the next run "
                + "starts a new init");
      }
      LOG.info(
          "virtual host {}: its init {} is not running (killAll, or it ended); starting a new one",
          record.name(),
          now == null ? "(none recorded)" : now.pid());
      ProcessId init = vhosts.start(record.blueprint(), cgroups);
      try {
        fs.setMarker(layout.anchor(), path, INIT_KEY, init.toString());
      } catch (IOException | RuntimeException e) {
        try {
          fs.kill(init.pid());
        } catch (IOException | RuntimeException kill) {
          e.addSuppressed(kill);
        }
        throw e;
      }
      return init;
    }
  }

  /**
   * {@code read} with the container's {@code virtual_host} and {@code filesystem}, if it is a
   * virtual host.
   */
  ContainerSpec withSections(ContainerName name, ContainerSpec read) throws IOException {
    CgroupPath path = layout.path(name);
    Optional<String> spec =
        name.isRoot() || !layout.trusted(path) ? Optional.empty() : marker(path, SPEC_KEY);
    if (spec.isEmpty()) {
      return read;
    }
    ContainerSpec sections = ContainerSpec.parse(spec.get());
    return read.toBuilder()
        .virtualHost(sections.virtualHost())
        .filesystem(sections.filesystem())
        .build();
  }

  /**
   * Refuses an update that would change a virtual host, as lmctfy did (UNIMPLEMENTED): {@code
   * virtual_host} and {@code filesystem} may only repeat what the container has, and a virtual host
   * cannot be delegated. Absent, they leave the virtual host as it is, with DIFF and REPLACE.
   */
  void checkUpdate(ContainerName name, ContainerSpec spec) throws IOException {
    boolean mentions = spec.virtualHost() != null || spec.filesystem() != null;
    CgroupPath path = layout.path(name);
    Optional<String> recorded =
        name.isRoot() || !layout.trusted(path) ? Optional.empty() : marker(path, SPEC_KEY);
    if (recorded.isEmpty()) {
      if (mentions) {
        throw new LmctfyException(
            ErrorCode.UNIMPLEMENTED,
            "update "
                + name
                + ": virtual_host: a container becomes a "
                + "virtual host only when it is created (as in lmctfy)");
      }
      return;
    }
    if (spec.owner() != null || spec.ownerGroup() != null) {
      throw new LmctfyException(
          ErrorCode.UNIMPLEMENTED,
          "update "
              + name
              + ": "
              + (spec.owner() != null ? "owner" : "owner_group")
              + ": a virtual host cannot be delegated");
    }
    ContainerSpec sections = ContainerSpec.parse(recorded.get());
    if (mentions && !sections.equals(sections(spec))) {
      throw new LmctfyException(
          ErrorCode.UNIMPLEMENTED,
          "update "
              + name
              + ": virtual_host and filesystem cannot "
              + "change on a running virtual host (as in lmctfy): it has "
              + sections.toJson().replace('"', '\'')
              + "; destroy it and create it again");
    }
  }

  private Optional<String> marker(CgroupPath path, String key) throws IOException {
    try {
      return fs.marker(layout.anchor(), path, key);
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
