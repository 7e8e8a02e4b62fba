package org.lmctfy.internal.facade;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.lmctfy.ApiOptions;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.internal.driver.Driver;
import org.lmctfy.internal.driver.Drivers;
import org.lmctfy.internal.lifecycle.Lifecycle;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.notify.Notifier;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.InitSpec;

/** The {@link ContainerApi} over one {@link CgroupFs}, with the root its {@link Driver} chose. */
public final class ContainerApiImpl implements ContainerApi {
  private final CgroupFs fs;
  private final CgroupPath root;
  private final ApiOptions options;
  private final Driver driver;
  private final Notifier notifier = new Notifier();
  private volatile Lifecycle lifecycle;

  public ContainerApiImpl(CgroupFs fs, Driver driver, ApiOptions options) {
    this.fs = Objects.requireNonNull(fs, "fs");
    this.driver = Objects.requireNonNull(driver, "driver");
    this.root = driver.root();
    this.options = Objects.requireNonNull(options, "options");
  }

  /** How long processes are killed and the freezer waited for. */
  Duration killTimeout() {
    return options.killTimeout();
  }

  /**
   * See {@link ContainerApi#open(CgroupFs)}: this process's v2 cgroup where v2 carries the
   * controllers, else the root.
   */
  public static CgroupPath defaultRoot(CgroupFs fs) {
    return Drivers.defaultRoot(fs);
  }

  /** Built on first use, so that initMachine can mount hierarchies before the layout is read. */
  Lifecycle lifecycle() {
    Lifecycle l = lifecycle;
    if (l == null) {
      synchronized (this) {
        if (lifecycle == null) {
          lifecycle =
              new Lifecycle(
                  fs,
                  root,
                  options.killTimeout(),
                  options.lockTimeout(),
                  notifier::destroyed,
                  driver);
        }
        l = lifecycle;
      }
    }
    return l;
  }

  @Override
  public CgroupFs cgroupFs() {
    return fs;
  }

  @Override
  public CgroupPath root() {
    return root;
  }

  @Override
  public Container create(String name, ContainerSpec spec) {
    Objects.requireNonNull(spec, "spec");
    ContainerName resolved = lifecycle().resolve(name);
    lifecycle().create(resolved, spec);
    return new ContainerImpl(this, resolved);
  }

  @Override
  public Container get(String name) {
    ContainerName resolved = lifecycle().resolve(name);
    lifecycle().requireExists(resolved);
    return new ContainerImpl(this, resolved);
  }

  @Override
  public boolean exists(String name) {
    return lifecycle().exists(lifecycle().resolve(name));
  }

  @Override
  public Map<String, ContainerStats> stats(Collection<String> names, StatsType type) {
    Objects.requireNonNull(type, "type");
    Lifecycle l = lifecycle();
    List<ContainerName> resolved = new ArrayList<>(names.size());
    for (String name : names) {
      resolved.add(l.resolve(name));
    }
    return l.stats(resolved, type);
  }

  @Override
  public ContainerSpec normalise(ContainerSpec spec) {
    return lifecycle().normalise(Objects.requireNonNull(spec, "spec"));
  }

  @Override
  public void destroy(String name) {
    lifecycle().destroy(lifecycle().resolve(name));
  }

  @Override
  public String detect(long pid) {
    return lifecycle().detect(pid == 0 ? fs.selfPid() : pid).value();
  }

  @Override
  public void initMachine(InitSpec spec) {
    Objects.requireNonNull(spec, "spec");
    lifecycle()
        .prepareRoot(spec.processesLeaf() == null); // a systemd driver's unit is started first
    lifecycle().initMachine(spec);
    synchronized (this) {
      lifecycle = null; // hierarchies may have been mounted: read the layout again
    }
  }

  @Override
  public CleanupReport cleanup() {
    return lifecycle().cleanup();
  }

  Notifier notifier() {
    return notifier;
  }

  /**
   * Ends every notification registration (each gets its last notification, ENDED) and thread, and
   * lets go of the lock file.
   */
  @Override
  public void close() {
    try {
      notifier.close();
    } finally {
      try {
        Lifecycle l = lifecycle;
        if (l != null) {
          l.close();
        }
      } finally {
        driver.close();
      }
    }
  }

  /** See {@link Driver#beforePlacing()}. */
  void beforePlacing() {
    driver.beforePlacing();
  }
}
