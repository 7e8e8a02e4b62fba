package org.lmctfy.internal.resources;

import java.util.List;

/** The list of {@link ResourceHandler}s: the order is the order of a plan's writes. */
final class Handlers {
  static final List<ResourceHandler> ALL =
      List.of(
          new CpuHandler(),
          new MemoryHandler(),
          new PidsHandler(),
          new BlockIoHandler(),
          new DeviceHandler(),
          new HugetlbHandler(),
          new NetworkHandler(),
          new MonitoringHandler(),
          new MiscHandler(),
          new RdmaHandler(),
          new ChildrenLimitHandler(),
          new UnifiedHandler(),
          new OwnerHandler());

  private Handlers() {}
}
