package org.lmctfy.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** A destroy of the API: its duration, and what the container had used. */
@Name("org.lmctfy.ContainerDestroy")
@Label("Container Destroy")
@Category({"lmctfy", "Lifecycle"})
@Description(
    "The API destroyed the container, its subcontainers and its processes; the figures are what"
        + " it had used, read just before")
final class ContainerDestroyEvent extends jdk.jfr.Event {
  @Label("Container")
  @Description("The container's name")
  String container;

  @Label("CPU Time")
  @Description("CPU time its processes used until the destroy")
  @Timespan(Timespan.NANOSECONDS)
  long cpuTime;

  @Label("Memory Usage")
  @Description("Memory it held when destroyed")
  @DataAmount
  long memoryUsage;

  @Label("Memory Peak")
  @Description("The most memory it held (v1 max_usage_in_bytes, v2 memory.peak)")
  @DataAmount
  long memoryPeak;

  @Label("OOM Kills")
  @Description("Processes the OOM killer killed in it, over its life")
  long oomKills;
}
