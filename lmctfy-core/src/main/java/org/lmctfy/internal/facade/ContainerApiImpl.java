package org.lmctfy.internal.facade;

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
import org.lmctfy.internal.jfr.Flight;
import org.lmctfy.internal.lifecycle.Containers;
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
  private final Flight flight;
  private final Notifier notifier;
  private volatile Containers containers;

  public ContainerApiImpl(CgroupFs fs, Driver driver, ApiOptions options) {
    this.fs = Objects.requireNonNull(fs, "fs");
    this.driver = Objects.requireNonNull(driver, "driver");
    this.root = driver.root();
    this.options = Objects.requireNonNull(options, "options");
    // the periodic statistics read the containers this API handles through the entry of the time
    this.flight = Flight.open(() -> containers().statsReader(StatsType.SUMMARY));
    this.notifier = new Notifier(flight);
  }

  /**
   * The one internal entry, built on first use, so that initMachine can mount hierarchies before
   * the layout is read.
   */
  Containers containers() {
    Containers c = containers;
    if (c == null) {
      synchronized (this) {
        if (containers == null) {
          containers =
              new Containers(
                  fs, root, options.killTimeout(), options.lockTimeout(), notifier, flight, driver);
        }
        c = containers;
      }
    }
    return c;
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
    ContainerName resolved = containers().resolve(name);
    containers().create(resolved, spec);
    flight.handles(resolved.value());
    return new ContainerImpl(this, resolved);
  }

  @Override
  public Container get(String name) {
    ContainerName resolved = containers().resolve(name);
    containers().requireExists(resolved);
    flight.handles(resolved.value());
    return new ContainerImpl(this, resolved);
  }

  @Override
  public boolean exists(String name) {
    return containers().exists(containers().resolve(name));
  }

  @Override
  public Map<String, ContainerStats> stats(Collection<String> names, StatsType type) {
    Objects.requireNonNull(type, "type");
    Containers c = containers();
    List<ContainerName> resolved = new ArrayList<>(names.size());
    for (String name : names) {
      resolved.add(c.resolve(name));
    }
    return c.stats(resolved, type);
  }

  @Override
  public ContainerSpec normalise(ContainerSpec spec) {
    return containers().normalise(Objects.requireNonNull(spec, "spec"));
  }

  @Override
  public void destroy(String name) {
    containers().destroy(containers().resolve(name));
  }

  @Override
  public String detect(long pid) {
    return containers().detect(pid == 0 ? fs.selfPid() : pid).value();
  }

  @Override
  public void initMachine(InitSpec spec) {
    containers().initMachine(Objects.requireNonNull(spec, "spec"));
    synchronized (this) {
      containers = null; // hierarchies may have been mounted: read the layout again
    }
  }

  @Override
  public CleanupReport cleanup() {
    return containers().cleanup();
  }

  /**
   * Stops the flight recorder's statistics, ends every notification registration (each gets its
   * last notification, ENDED) and thread, and lets go of the lock file.
   */
  @Override
  public void close() {
    try {
      flight.close();
      notifier.close();
    } finally {
      try {
        Containers c = containers;
        if (c != null) {
          c.close();
        }
      } finally {
        driver.close();
      }
    }
  }
}
