package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.spec.InvalidArgument.messageOf;

import org.junit.jupiter.api.Test;
import org.lmctfy.spec.EventSpec.PressureTrigger;
import org.lmctfy.spec.EventSpec.PressureTrigger.Kind;
import org.lmctfy.spec.EventSpec.PressureTrigger.Resource;

class EventSpecTest {

  @Test
  void parsesLmctfysOomEvent() {
    assertThat(EventSpec.parse("oom {}")).isEqualTo(EventSpec.oom());
  }

  @Test
  void parsesLmctfysMemoryThreshold() {
    assertThat(EventSpec.parse("memory_threshold { usage: 1048576 }"))
        .isEqualTo(EventSpec.memoryThreshold(1 << 20));
  }

  @Test
  void parsesContainerEmptyAndDestroyed() {
    assertThat(EventSpec.parse("container_empty {}")).isEqualTo(EventSpec.containerEmpty());
    assertThat(EventSpec.parse("{\"container_destroyed\": {}}"))
        .isEqualTo(EventSpec.containerDestroyed());
  }

  @Test
  void parsesPressureTrigger() {
    EventSpec event =
        EventSpec.parse(
            "pressure { resource: MEMORY kind: SOME threshold_us: 150000 window_us: 1000000 }");

    assertThat(event).isEqualTo(EventSpec.pressure(Resource.MEMORY, Kind.SOME, 150_000, 1_000_000));
    assertThat(event.pressure().kernelTrigger()).isEqualTo("some 150000 1000000");
  }

  @Test
  void roundTripsThroughTextAndJson() {
    for (EventSpec e :
        new EventSpec[] {
          EventSpec.oom(),
          EventSpec.memoryThreshold(5),
          EventSpec.containerEmpty(),
          EventSpec.containerDestroyed(),
          EventSpec.pressure(Resource.IO, Kind.FULL, 1, 500_000)
        }) {
      assertThat(EventSpec.parse(e.toText())).isEqualTo(e);
      assertThat(EventSpec.parse(e.toJson())).isEqualTo(e);
    }
  }

  @Test
  void noEventIsRejected() {
    messageOf(() -> EventSpec.parse("")).startsWith("event: exactly one of").endsWith("got none");
  }

  @Test
  void twoEventsAreRejected() {
    messageOf(() -> EventSpec.parse("oom {} container_empty {}"))
        .endsWith("got [oom, container_empty]");
  }

  @Test
  void zeroThresholdIsRejected() {
    messageOf(() -> EventSpec.memoryThreshold(0))
        .isEqualTo("memory_threshold.usage: invalid value 0: must be > 0 bytes");
  }

  @Test
  void missingThresholdIsRejected() {
    messageOf(() -> EventSpec.parse("memory_threshold {}"))
        .isEqualTo("memory_threshold.usage: required");
  }

  @Test
  void pressureWindowOutOfRangeIsRejected() {
    messageOf(() -> new PressureTrigger(Resource.CPU, Kind.SOME, 1, 100))
        .startsWith("pressure.window_us: invalid value 100");
  }

  @Test
  void pressureThresholdAboveWindowIsRejected() {
    messageOf(() -> new PressureTrigger(Resource.CPU, Kind.SOME, 600_000, 500_000))
        .startsWith(
            "pressure.threshold_us: invalid value 600000: must be > 0 and <= "
                + "pressure.window_us (500000)");
  }
}
