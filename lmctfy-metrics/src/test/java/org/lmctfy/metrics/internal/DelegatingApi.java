package org.lmctfy.metrics.internal;

import java.util.Collection;
import java.util.Map;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.InitSpec;

/** An API that does what another does: a test overrides the calls it steps into. */
class DelegatingApi implements ContainerApi {
  private final ContainerApi api;

  DelegatingApi(ContainerApi api) {
    this.api = api;
  }

  @Override
  public CgroupPath root() {
    return api.root();
  }

  @Override
  public CgroupFs cgroupFs() {
    return api.cgroupFs();
  }

  @Override
  public Container create(String name, ContainerSpec spec) {
    return api.create(name, spec);
  }

  @Override
  public Container get(String name) {
    return api.get(name);
  }

  @Override
  public Map<String, ContainerStats> stats(Collection<String> names, StatsType type) {
    return api.stats(names, type);
  }

  @Override
  public boolean exists(String name) {
    return api.exists(name);
  }

  @Override
  public ContainerSpec normalise(ContainerSpec spec) {
    return api.normalise(spec);
  }

  @Override
  public void destroy(String name) {
    api.destroy(name);
  }

  @Override
  public String detect(long pid) {
    return api.detect(pid);
  }

  @Override
  public void initMachine(InitSpec spec) {
    api.initMachine(spec);
  }

  @Override
  public CleanupReport cleanup() {
    return api.cleanup();
  }

  @Override
  public void close() {
    api.close();
  }
}
