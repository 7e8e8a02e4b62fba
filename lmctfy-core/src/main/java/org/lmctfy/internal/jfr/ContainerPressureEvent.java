package org.lmctfy.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** A pressure notification of the API: its PSI trigger fired. */
@Name("org.lmctfy.ContainerPressure")
@Label("Container Pressure Stall")
@Category({"lmctfy", "Notifications"})
@Description(
    "A PSI trigger of the container fired: its tasks stalled on the resource for at least the"
        + " threshold within the window, as a pressure notification of the API saw it")
@StackTrace(false)
final class ContainerPressureEvent extends ContainerNotificationEvent {
  @Label("Resource")
  @Description("cpu, memory or io")
  String resource;

  @Label("Stall")
  @Description("some (some tasks stalled) or full (all at once)")
  String stall;

  @Label("Threshold")
  @Description("The trigger's stall time within a window")
  @Timespan(Timespan.MICROSECONDS)
  long threshold;

  @Label("Window")
  @Description("The trigger's window")
  @Timespan(Timespan.MICROSECONDS)
  long window;

  @Label("Average 10 s")
  @Description("The share of the last 10 s stalled, when the event was read")
  @Percentage
  float avg10;

  @Label("Average 60 s")
  @Description("The share of the last 60 s stalled")
  @Percentage
  float avg60;

  @Label("Total")
  @Description("Time stalled since the container was made")
  @Timespan(Timespan.NANOSECONDS)
  long total;
}
