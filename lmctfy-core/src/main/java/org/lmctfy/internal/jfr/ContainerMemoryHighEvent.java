package org.lmctfy.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A memory_high notification of the API found the container throttled at memory.high. */
@Name("org.lmctfy.ContainerMemoryHigh")
@Label("Container Memory High")
@Category({"lmctfy", "Notifications"})
@Description(
    "The kernel throttled the container at its memory.high (memory.events high grew), as a"
        + " memory_high notification of the API saw it")
@StackTrace(false)
final class ContainerMemoryHighEvent extends ContainerNotificationEvent {
  @Label("High Events")
  @Description("memory.events high: times the container was throttled at memory.high")
  long highEvents;

  @Label("Memory Usage")
  @Description("memory.current when the event was read")
  @DataAmount
  long memoryUsage;
}
