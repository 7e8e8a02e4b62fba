package org.lmctfy.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.metrics.support.KernelContainers;

/**
 * The instruments of real containers on this machine's kernel, below a scratch parent: each point
 * equals its figure of {@code api.stats()}, and a destroyed container's points stop.
 */
@Tag("kernel")
@Tag("needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
class KernelContainerMetricsTest {

  /**
   * One collection's points of one container, keyed as {@link KernelContainers#figures} keys them
   * (a pressure total without its {@code .total}).
   */
  private static Map<String, Double> points(Collection<MetricData> metrics, String container) {
    Map<String, Double> out = new HashMap<>();
    for (MetricData m : metrics) {
      for (PointData p : m.getData().getPoints()) {
        if (container.equals(
            p.getAttributes().get(AttributeKey.stringKey(ContainerSelection.CONTAINER_NAME)))) {
          String stall =
              p.getAttributes().get(AttributeKey.stringKey("system.linux.pressure.stall_type"));
          out.put(
              m.getName().replaceFirst("\\.total$", "") + (stall == null ? "" : " " + stall),
              p instanceof DoublePointData d
                  ? d.getValue()
                  : (double) ((LongPointData) p).getValue());
        }
      }
    }
    return out;
  }

  @Test
  void eachPointEqualsItsFigureOfApiStatsAndADestroyedContainersPointsStop() throws Exception {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    try (KernelContainers containers = KernelContainers.onHost();
        SdkMeterProvider provider =
            SdkMeterProvider.builder().registerMetricReader(reader).build()) {
      ContainerMetrics.builder(
              containers.api(),
              ContainerSelection.childrenOf("/batch").withContainerNameTag(),
              OpenTelemetrySdk.builder().setMeterProvider(provider).build())
          .build();

      containers.assertEachEqualsItsStats(c -> points(reader.collectAllMetrics(), c));
      Collection<MetricData> metrics = reader.collectAllMetrics();
      assertThat(points(metrics, "/batch/job").get("container.cpu.time")).isPositive();
      assertThat(points(metrics, "/batch/web").get("container.task.count")).isEqualTo(1.0);

      containers.api().destroy("/batch/job");
      metrics = reader.collectAllMetrics();
      assertThat(points(metrics, "/batch/job")).isEmpty();
      assertThat(points(metrics, "/batch/web")).containsKey("container.memory.usage");
    }
  }
}
