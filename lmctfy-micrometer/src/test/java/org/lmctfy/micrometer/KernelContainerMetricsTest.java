package org.lmctfy.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.metrics.support.KernelContainers;

/**
 * The meters of real containers on this machine's kernel, below a scratch parent: each equals its
 * figure of {@code api.stats()}, and a destroyed container's meters go.
 */
@Tag("kernel")
@Tag("needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
class KernelContainerMetricsTest {

  /** The meters of one container, keyed as {@link KernelContainers#figures} keys them. */
  private static Map<String, Double> meters(SimpleMeterRegistry registry, String container) {
    Map<String, Double> out = new HashMap<>();
    for (Meter m : registry.getMeters()) {
      if (container.equals(m.getId().getTag(ContainerSelection.CONTAINER_NAME))) {
        String stall = m.getId().getTag("system.linux.pressure.stall_type");
        out.put(
            m.getId().getName() + (stall == null ? "" : " " + stall),
            m.measure().iterator().next().getValue());
      }
    }
    return out;
  }

  @Test
  void eachMeterEqualsItsFigureOfApiStatsAndADestroyedContainersMetersGo() throws Exception {
    try (KernelContainers containers = KernelContainers.onHost()) {
      MockClock clock = new MockClock();
      SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
      ContainerMetrics.builder(
              containers.api(), ContainerSelection.childrenOf("/batch").withContainerNameTag())
          .build()
          .bindTo(registry);

      containers.assertEachEqualsItsStats(
          c -> {
            clock.add(Duration.ofSeconds(2)); // a new scrape
            return meters(registry, c);
          });
      assertThat(meters(registry, "/batch/job").get("container.cpu.time")).isPositive();
      assertThat(meters(registry, "/batch/web").get("container.task.count")).isEqualTo(1.0);
      assertThat(meters(registry, "/batch/web").get("container.memory.limit"))
          .isEqualTo(64.0 * 1024 * 1024);

      containers.api().destroy("/batch/job");
      clock.add(Duration.ofSeconds(2));
      assertThat(registry.get("lmctfy.container.count").gauge().value()).isEqualTo(1);
      assertThat(meters(registry, "/batch/job")).isEmpty();
    }
  }
}
