package org.lmctfy.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** An oom notification of the API found the container out of memory. */
@Name("org.lmctfy.ContainerOom")
@Label("Container Out of Memory")
@Category({"lmctfy", "Notifications"})
@Description(
    "The kernel found the container out of memory (v1 memory.oom_control, v2 memory.events oom or"
        + " oom_kill grew), as an oom notification of the API saw it")
@StackTrace(false)
final class ContainerOomEvent extends ContainerNotificationEvent {
  @Label("Memory Usage")
  @Description("memory.current (v1 memory.usage_in_bytes) when the event was read")
  @DataAmount
  long memoryUsage;

  @Label("Memory Limit")
  @Description("The container's own memory limit, -1 for none")
  @DataAmount
  long memoryLimit;

  @Label("OOM Events")
  @Description("memory.events oom: times the container was out of memory (v2 only)")
  long oomEvents;

  @Label("OOM Kills")
  @Description("Processes the OOM killer killed in the container (memory.events oom_kill)")
  long oomKills;
}
