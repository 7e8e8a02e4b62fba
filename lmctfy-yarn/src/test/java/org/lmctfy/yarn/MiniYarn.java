package org.lmctfy.yarn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.ContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * A {@link MiniYARNCluster} of one ResourceManager and one NodeManager whose executor is the one
 * given, with what the tests need: the FIFO scheduler, small allocations (32 MB), room for 40
 * containers, no NodeManager memory checks (the kernel enforces the limit) and its usage monitor
 * on, every 300 ms, with the process tree given. Also what tests use to look at a container's
 * cgroups from outside lmctfy.
 */
final class MiniYarn implements AutoCloseable {
  final MiniYARNCluster cluster;

  private MiniYarn(MiniYARNCluster cluster) {
    this.cluster = cluster;
  }

  /** The NodeManager's configuration with {@code executor}, {@code tree} and {@code extra}. */
  static YarnConfiguration conf(
      Class<? extends ContainerExecutor> executor, Class<?> tree, Map<String, String> extra) {
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(YarnConfiguration.NM_CONTAINER_EXECUTOR, executor.getName());
    // the FIFO scheduler: the capacity scheduler needs a capacity-scheduler.xml of queues
    conf.set(
        YarnConfiguration.RM_SCHEDULER,
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler");
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 32);
    conf.setInt("yarn.minicluster.yarn.nodemanager.resource.memory-mb", 4096);
    conf.setInt(YarnConfiguration.NM_VCORES, 8);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setBoolean("yarn.minicluster.control-resource-monitoring", true);
    conf.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, true);
    conf.setLong(YarnConfiguration.NM_CONTAINER_MON_INTERVAL_MS, 300);
    conf.set(YarnConfiguration.NM_CONTAINER_MON_PROCESS_TREE, tree.getName());
    conf.setFloat(
        YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100f); // a full test disk is fine
    conf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 0);
    extra.forEach(conf::set);
    return conf;
  }

  /** Starts the cluster and waits for its NodeManager. */
  static MiniYarn start(String name, YarnConfiguration conf) throws Exception {
    return start(name, conf, 1);
  }

  /** Starts a cluster of {@code nodeManagers} (0: a ResourceManager alone) and waits for them. */
  static MiniYarn start(String name, YarnConfiguration conf, int nodeManagers) throws Exception {
    MiniYARNCluster cluster = new MiniYARNCluster(name, nodeManagers, 1, 1);
    cluster.init(conf);
    cluster.start();
    long wait = KernelYarnClusterTest.patience(120).toMillis();
    if (!cluster.waitForNodeManagersToConnect(wait)) {
      cluster.stop();
      throw new IllegalStateException("the NodeManager did not register within " + wait + " ms");
    }
    return new MiniYarn(cluster);
  }

  /** The configuration clients use (the ResourceManager's addresses). */
  YarnConfiguration clientConf() {
    return new YarnConfiguration(cluster.getConfig());
  }

  NodeManager nodeManager() {
    return cluster.getNodeManager(0);
  }

  @Override
  public void close() {
    cluster.stop();
  }

  /**
   * The cgroup directories anywhere below {@code /sys/fs/cgroup} whose name contains {@code
   * fragment}, found by walking the mounts, not through lmctfy.
   */
  static Set<Path> cgroupsNamed(String fragment) throws IOException {
    try (Stream<Path> walk = Files.walk(Path.of("/sys/fs/cgroup"), 8)) {
      return walk.filter(Files::isDirectory)
          .filter(p -> p.getFileName() != null && p.getFileName().toString().contains(fragment))
          .collect(Collectors.toSet());
    }
  }

  /**
   * Whether {@code pid} runs: it is in {@code /proc}, not a zombie (a killed process stays one
   * until its parent, or init, reaps it) and not exiting ({@code PF_EXITING} in its flags): the
   * kernel takes an exiting process out of its cgroups before it makes it a zombie, so a container
   * can be gone while a process it held is still on its way out, shown running.
   */
  static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // after the command's ")": state ppid pgrp session tty_nr tpgid flags ...
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      char state = f[0].charAt(0);
      boolean exiting = (Long.parseLong(f[6]) & PF_EXITING) != 0;
      return state != 'Z' && state != 'X' && !exiting;
    } catch (IOException e) {
      return false;
    }
  }

  /** include/linux/sched.h: the process is in do_exit. */
  private static final long PF_EXITING = 0x4;

  /** A script file with {@code text}, for containers to run ({@code bash <file>}). */
  static Path script(Path dir, String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text, StandardCharsets.UTF_8);
    return p;
  }
}
