package org.lmctfy.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** Periodic: one container's usage, for each container an API handles. Off unless enabled. */
@Name("org.lmctfy.ContainerStatistics")
@Label("Container Statistics")
@Category({"lmctfy", "Statistics"})
@Description(
    "What a container the API created or got uses: CPU, memory, tasks and pressure, as"
        + " stats(SUMMARY) reads them (at most 1000 containers per period)")
@Enabled(false)
@Period("10 s")
@StackTrace(false)
final class ContainerStatisticsEvent extends jdk.jfr.Event {
  @Label("Container")
  @Description("The container's name")
  String container;

  @Label("CPU Time")
  @Description("CPU time its processes used, over its life")
  @Timespan(Timespan.NANOSECONDS)
  long cpuTime;

  @Label("CPU User Time")
  @Timespan(Timespan.NANOSECONDS)
  long cpuUserTime;

  @Label("CPU System Time")
  @Timespan(Timespan.NANOSECONDS)
  long cpuSystemTime;

  @Label("Memory Usage")
  @DataAmount
  long memoryUsage;

  @Label("Memory Working Set")
  @Description("Usage less the inactive page cache, what the kubelet evicts on")
  @DataAmount
  long memoryWorkingSet;

  @Label("Memory Limit")
  @Description("The lowest memory limit of the container and its ancestors, -1 for none")
  @DataAmount
  long memoryLimit;

  @Label("OOM Kills")
  long oomKills;

  @Label("High Events")
  @Description("memory.events high: times it was throttled at memory.high (v2)")
  long highEvents;

  @Label("Tasks")
  @Description("pids.current")
  long tasks;

  @Label("Task Limit")
  @Description("pids.max, -1 for max")
  long taskLimit;

  @Label("CPU Pressure")
  @Description("PSI: the share of the last 10 s some of its tasks waited for a CPU")
  @Percentage
  float cpuPressure;

  @Label("Memory Pressure")
  @Description("PSI: the share of the last 10 s some of its tasks stalled on memory")
  @Percentage
  float memoryPressure;

  @Label("Memory Full Pressure")
  @Description("PSI: the share of the last 10 s all of its tasks stalled on memory")
  @Percentage
  float memoryFullPressure;

  @Label("IO Pressure")
  @Description("PSI: the share of the last 10 s some of its tasks stalled on io")
  @Percentage
  float ioPressure;
}
