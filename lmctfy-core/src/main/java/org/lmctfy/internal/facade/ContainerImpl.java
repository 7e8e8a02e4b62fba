package org.lmctfy.internal.facade;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ListPolicy;
import org.lmctfy.NotificationListener;
import org.lmctfy.StatsType;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.lifecycle.Errors;
import org.lmctfy.internal.lifecycle.Layout;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.resources.Mode;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.RunSpec;

/** A handle on one container: its name and the API; no cached state (the kernel is the truth). */
final class ContainerImpl implements Container {
  private final ContainerApiImpl api;
  private final ContainerName name;

  ContainerImpl(ContainerApiImpl api, ContainerName name) {
    this.api = api;
    this.name = name;
  }

  @Override
  public String name() {
    return name.value();
  }

  @Override
  public void update(ContainerSpec spec, UpdatePolicy policy) {
    api.lifecycle().update(name, Objects.requireNonNull(spec, "spec"),
        Objects.requireNonNull(policy, "policy") == UpdatePolicy.REPLACE ? Mode.REPLACE : Mode.DIFF);
  }

  @Override
  public ContainerSpec spec() {
    return api.lifecycle().spec(name);
  }

  @Override
  public ContainerStats stats(StatsType type) {
    throw ContainerApiImpl.unimplemented("stats");
  }

  @Override
  public void enter(List<Long> tids) {
    throw ContainerApiImpl.unimplemented("enter");
  }

  @Override
  public ContainerProcess run(List<String> argv, RunSpec spec) {
    throw ContainerApiImpl.unimplemented("run");
  }

  @Override
  public void pause() {
    throw ContainerApiImpl.unimplemented("pause");
  }

  @Override
  public void resume() {
    throw ContainerApiImpl.unimplemented("resume");
  }

  @Override
  public void killAll() {
    throw ContainerApiImpl.unimplemented("killAll");
  }

  @Override
  public List<String> listSubcontainers(ListPolicy policy) {
    List<String> out = new ArrayList<>();
    api.lifecycle().list(name, policy == ListPolicy.RECURSIVE).forEach(n -> out.add(n.value()));
    return out;
  }

  @Override
  public List<Long> listProcesses(ListPolicy policy) {
    return members("cgroup.procs", policy);
  }

  @Override
  public List<Long> listThreads(ListPolicy policy) {
    return members("tasks", policy);
  }

  /** The ids in {@code file} of the anchor cgroup (and of its subcontainers, recursively). */
  private List<Long> members(String file, ListPolicy policy) {
    api.lifecycle().requireExists(name);
    Layout layout = api.lifecycle().layout();
    Hierarchy anchor = layout.anchor();
    String actual = file.equals("tasks") && anchor.version() == CgroupVersion.V2 ? "cgroup.threads" : file;
    List<ContainerName> names = new ArrayList<>(List.of(name));
    if (policy == ListPolicy.RECURSIVE) {
      names.addAll(api.lifecycle().list(name, true));
    }
    TreeSet<Long> ids = new TreeSet<>();
    try {
      for (ContainerName n : names) {
        for (String line : layout.fs().read(anchor, layout.path(n), actual).split("\n")) {
          if (!line.isBlank()) {
            ids.add(Long.parseLong(line.strip()));
          }
        }
      }
    } catch (IOException e) {
      throw Errors.of("list the " + (file.equals("tasks") ? "threads" : "processes") + " of " + name, e);
    }
    return List.copyOf(ids);
  }

  @Override
  public long registerNotification(EventSpec event, NotificationListener listener) {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(listener, "listener");
    api.lifecycle().requireExists(name);
    return api.notifier().register(api.lifecycle().layout(), name, event, listener);
  }

  @Override
  public void unregisterNotification(long id) {
    api.notifier().unregister(name, id);
  }

  @Override
  public void destroy() {
    api.lifecycle().destroy(name);
  }

  @Override
  public String toString() {
    return "Container" + name;
  }
}
