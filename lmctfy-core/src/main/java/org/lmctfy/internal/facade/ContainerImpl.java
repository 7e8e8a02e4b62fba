package org.lmctfy.internal.facade;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ListPolicy;
import org.lmctfy.NotificationListener;
import org.lmctfy.StatsType;
import org.lmctfy.UpdateOption;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.process.LaunchedProcess;
import org.lmctfy.internal.resources.Mode;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.RunSpec;

/**
 * A handle on one container: its name and the API; no cached state (the kernel is the truth). It
 * checks the arguments and translates; the API's {@code Containers} does the work.
 */
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
    update(spec, policy, new UpdateOption[0]);
  }

  @Override
  public void update(ContainerSpec spec, UpdatePolicy policy, UpdateOption... options) {
    boolean force = false;
    for (UpdateOption o : Objects.requireNonNull(options, "options")) {
      force |= Objects.requireNonNull(o, "options[]") == UpdateOption.FORCE_MEMORY_LIMIT;
    }
    api.containers()
        .update(
            name,
            Objects.requireNonNull(spec, "spec"),
            Objects.requireNonNull(policy, "policy") == UpdatePolicy.REPLACE
                ? Mode.REPLACE
                : Mode.DIFF,
            force);
  }

  @Override
  public ContainerSpec spec() {
    return api.containers().spec(name);
  }

  @Override
  public ContainerStats stats(StatsType type) {
    return api.containers().stats(name, Objects.requireNonNull(type, "type"));
  }

  @Override
  public void reclaim(long bytes) {
    api.containers().reclaim(name, bytes);
  }

  @Override
  public void enter(List<Long> tids) {
    api.containers().enter(name, Objects.requireNonNull(tids, "tids"));
  }

  @Override
  public ContainerProcess run(List<String> argv, RunSpec spec) {
    Objects.requireNonNull(spec, "spec");
    return new LaunchedProcess(api.containers().run(name, argv, spec));
  }

  @Override
  public long initPid() {
    return api.containers().initPid(name);
  }

  @Override
  public void pause() {
    api.containers().pause(name);
  }

  @Override
  public void resume() {
    api.containers().resume(name);
  }

  @Override
  public void killAll() {
    api.containers().killAll(name);
  }

  @Override
  public List<String> listSubcontainers(ListPolicy policy) {
    List<String> out = new ArrayList<>();
    api.containers().list(name, policy == ListPolicy.RECURSIVE).forEach(n -> out.add(n.value()));
    return out;
  }

  @Override
  public List<Long> listProcesses(ListPolicy policy) {
    return api.containers().listProcesses(name, policy == ListPolicy.RECURSIVE);
  }

  @Override
  public List<Long> listThreads(ListPolicy policy) {
    return api.containers().listThreads(name, policy == ListPolicy.RECURSIVE);
  }

  @Override
  public long registerNotification(EventSpec event, NotificationListener listener) {
    return api.containers()
        .registerNotification(
            name,
            Objects.requireNonNull(event, "event"),
            Objects.requireNonNull(listener, "listener"));
  }

  @Override
  public void unregisterNotification(long id) {
    api.containers().unregisterNotification(name, id);
  }

  @Override
  public void destroy() {
    api.containers().destroy(name);
  }

  @Override
  public String toString() {
    return "Container" + name;
  }
}
