package org.lmctfy.yarn;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.util.ResourceCalculatorProcessTree;
import org.jspecify.annotations.Nullable;
import org.lmctfy.ApiOptions;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.spec.ContainerStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManager's view of a container's usage read from its lmctfy container's cgroups instead of
 * walking {@code /proc}: memory (the working set as RSS: usage less inactive file cache; the whole
 * usage as virtual memory), CPU time and, beyond what YARN asks, pressure stall information. Every
 * process in the container counts, also those that left the launch script's session. Set it in
 * {@code yarn-site.xml}:
 *
 * <pre>{@code
 * <property>
 *   <name>yarn.nodemanager.container-monitor.process-tree.class</name>
 *   <value>org.lmctfy.yarn.LmctfyProcessTree</value>
 * </property>
 * }</pre>
 *
 * <p>The container is the one holding the process YARN names (lmctfy's {@code detect}) below the
 * container root, with the {@code lmctfy.yarn.*} settings the executor reads. Each tree opens
 * lmctfy for reading only, which starts no thread and holds no file or connection, so a tree the
 * monitor drops leaves nothing. Ages ({@code olderThanAge} above 1) are not tracked: such sizes are
 * {@link #UNAVAILABLE}. Not thread-safe, as the monitor uses it from one thread.
 */
public class LmctfyProcessTree extends ResourceCalculatorProcessTree {
  private static final Logger LOG = LoggerFactory.getLogger(LmctfyProcessTree.class);
  private final String pid;
  private final Function<ApiOptions, ContainerApi> opener;
  private @Nullable Settings settings;
  private boolean looked;
  private @Nullable Container container;
  private @Nullable ContainerStats stats;
  private long cpuMs = UNAVAILABLE;
  private long cpuAtMs = -1;
  private float cpuPercent = UNAVAILABLE;

  /**
   * The tree of the container holding {@code pid}, as YARN makes it.
   *
   * @param pid the container's process, from its pid file
   */
  public LmctfyProcessTree(String pid) {
    this(pid, ContainerApi::open);
  }

  /** The tree of {@code pid} over the lmctfy {@code opener} gives. */
  LmctfyProcessTree(String pid, Function<ApiOptions, ContainerApi> opener) {
    super(pid);
    this.pid = pid;
    this.opener = opener;
  }

  /**
   * Reads the {@code lmctfy.yarn.*} settings. The container is looked up at the first update: the
   * NodeManager's monitor also makes trees of pid 1 only to see whether trees can be made at all.
   *
   * @throws YarnException if a setting is wrong, naming it
   */
  @Override
  public void initialize() throws YarnException {
    try {
      settings = Settings.from(getConf());
    } catch (LmctfyException e) {
      throw new YarnException(e.getMessage(), e);
    }
  }

  /**
   * Reads the container's stats once; the getters answer from them until the next update. The first
   * update finds the container holding the process; a process in none below the container root (or
   * gone) has no figures: {@link #UNAVAILABLE}.
   */
  @Override
  public void updateProcessTree() {
    Container c = container == null ? find() : container;
    if (c == null) {
      return;
    }
    try {
      stats = c.stats(StatsType.SUMMARY);
    } catch (LmctfyException e) {
      stats = null; // destroyed: the monitor drops the container at its next round
      return;
    }
    if (stats.cpu() == null) {
      return;
    }
    long now = System.nanoTime() / 1_000_000;
    long used = stats.cpu().totalNs() / 1_000_000;
    if (cpuAtMs >= 0 && now > cpuAtMs) {
      cpuPercent = 100f * (used - cpuMs) / (now - cpuAtMs);
    }
    cpuMs = used;
    cpuAtMs = now;
  }

  /** The container holding the process, found once; null if there is none below the root. */
  private @Nullable Container find() {
    Settings s = settings;
    if (s == null || looked) {
      return null;
    }
    looked = true;
    try {
      ContainerApi opened = opener.apply(s.apiOptions());
      String name = opened.detect(Long.parseLong(pid.strip()));
      if (!name.startsWith(s.containerRoot() + "/")) {
        LOG.debug("process {} is in {}, not below {}: no figures", pid, name, s.containerRoot());
        return null;
      }
      container = opened.get(name);
    } catch (LmctfyException | NumberFormatException e) {
      LOG.debug("no lmctfy container for process {}: {}", pid, e.getMessage());
    }
    return container;
  }

  /** The container's name, processes, memory, CPU time and pressure, for YARN's kill messages. */
  @Override
  public String getProcessTreeDump() {
    Container c = container;
    if (c == null) {
      return "no lmctfy container for process " + pid + "\n";
    }
    StringBuilder out = new StringBuilder("lmctfy container ").append(c.name()).append('\n');
    try {
      List<Long> pids = c.listProcesses(ListPolicy.RECURSIVE);
      out.append("processes: ")
          .append(pids.stream().map(String::valueOf).collect(Collectors.joining(" ")))
          .append('\n');
    } catch (LmctfyException e) {
      out.append("processes: unknown (").append(e.getMessage()).append(")\n");
    }
    ContainerStats s = stats;
    if (s != null) {
      out.append(s.toText()).append('\n');
    }
    return out.toString();
  }

  @Override
  public long getVirtualMemorySize(int olderThanAge) {
    ContainerStats.MemoryStats m = memory(olderThanAge);
    return m == null ? UNAVAILABLE : m.usage();
  }

  @Override
  public long getRssMemorySize(int olderThanAge) {
    ContainerStats.MemoryStats m = memory(olderThanAge);
    if (m == null) {
      return UNAVAILABLE;
    }
    return m.workingSet() == null ? m.usage() : m.workingSet();
  }

  @Override
  public long getCumulativeCpuTime() {
    return cpuMs;
  }

  /** CPU used since the previous update, in percent of one CPU (200 is two CPUs' worth). */
  @Override
  public float getCpuUsagePercent() {
    return cpuPercent;
  }

  /** True: the container, not a process group, is what is measured and killed. */
  @Override
  public boolean checkPidPgrpidForMatch() {
    return true;
  }

  /**
   * The container's pressure stall information from the last update (CPU, memory, I/O: the share of
   * time some or all of its tasks waited), or null where the kernel offers none (cgroup v1, or a
   * kernel without PSI).
   */
  public ContainerStats.@Nullable PressureStats pressure() {
    ContainerStats s = stats;
    return s == null ? null : s.pressure();
  }

  /** The stats of the last update, or null before the first or once the container is gone. */
  public @Nullable ContainerStats stats() {
    return stats;
  }

  private ContainerStats.@Nullable MemoryStats memory(int olderThanAge) {
    ContainerStats s = stats;
    return olderThanAge > 1 || s == null ? null : s.memory();
  }
}
