package org.lmctfy.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.junit.FakeCgroups;

@FakeCgroups(layout = FakeLayout.V2)
class ContainerMetricsTest {
  private static final ContainerSpec ACCOUNTED = ContainerSpec.parse("memory { limit: -1 }");

  FakeCgroupFs fs;
  ContainerApi api;
  InMemoryMetricReader reader;
  SdkMeterProvider provider;
  OpenTelemetry openTelemetry;

  @BeforeEach
  void sdk() {
    reader = InMemoryMetricReader.create();
    provider = SdkMeterProvider.builder().registerMetricReader(reader).build();
    openTelemetry = OpenTelemetrySdk.builder().setMeterProvider(provider).build();
  }

  @AfterEach
  void closeSdk() {
    provider.close();
  }

  private void kernelSets(String container, String file, String content) {
    fs.kernel()
        .setValue(
            fs.hierarchies().get(0), CgroupPath.of(container).under(api.root()), file, content);
  }

  private void usesCpu(String container, long usec) {
    kernelSets(container, "cpu.stat", "usage_usec " + usec + "\nuser_usec 0\nsystem_usec 0\n");
  }

  /** One collection, by instrument name. */
  private Map<String, MetricData> collect() {
    Map<String, MetricData> out = new HashMap<>();
    for (MetricData m : reader.collectAllMetrics()) {
      assertThat(m.getInstrumentationScopeInfo().getName()).isEqualTo(ContainerMetrics.SCOPE);
      out.put(m.getName(), m);
    }
    return out;
  }

  private static List<? extends PointData> points(MetricData m) {
    return List.copyOf(m.getData().getPoints());
  }

  /** The value of the point of {@code m} with exactly {@code attributes}. */
  private static double value(MetricData m, Attributes attributes) {
    PointData p =
        m.getData().getPoints().stream()
            .filter(x -> x.getAttributes().equals(attributes))
            .findFirst()
            .orElseThrow(() -> new AssertionError(m.getName() + " has no point " + attributes));
    return p instanceof DoublePointData d ? d.getValue() : ((LongPointData) p).getValue();
  }

  private static Set<String> containerNames(Map<String, MetricData> metrics) {
    return metrics.values().stream()
        .flatMap(m -> m.getData().getPoints().stream())
        .map(p -> p.getAttributes().get(AttributeKey.stringKey(ContainerSelection.CONTAINER_NAME)))
        .filter(n -> n != null)
        .collect(Collectors.toSet());
  }

  @Test
  void eachInstrumentIsItsFigureOfApiStatsInItsUnit() {
    api.create("/web", ContainerSpec.parse("memory { limit: 64M } pids { limit: 32 }"));
    usesCpu("/web", 2_500_000);
    kernelSets("/web", "memory.current", Long.toString(5 << 20));
    kernelSets("/web", "pids.current", "7");
    kernelSets(
        "/web",
        "io.pressure",
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=750000\n"
            + "full avg10=0.00 avg60=0.00 avg300=0.00 total=500000\n");
    ContainerMetrics.builder(
            api,
            ContainerSelection.containers(List.of("/web")).withContainerNameTag(),
            openTelemetry)
        .attributes(Attributes.builder().put("app", "shop").build())
        .build();

    Map<String, MetricData> m = collect();

    ContainerStats s = api.stats(List.of("/web"), StatsType.SUMMARY).get("/web");
    Attributes web = Attributes.builder().put("app", "shop").put("container.name", "/web").build();
    MetricData cpu = m.get("container.cpu.time");
    assertThat(cpu.getType()).isEqualTo(MetricDataType.DOUBLE_SUM);
    assertThat(cpu.getDoubleSumData().isMonotonic()).isTrue();
    assertThat(cpu.getUnit()).isEqualTo("s");
    assertThat(value(cpu, web)).isEqualTo(s.cpu().totalNs() / 1e9).isEqualTo(2.5);
    MetricData usage = m.get("container.memory.usage");
    assertThat(usage.getType()).isEqualTo(MetricDataType.LONG_SUM);
    assertThat(usage.getLongSumData().isMonotonic()).isFalse();
    assertThat(usage.getUnit()).isEqualTo("By");
    assertThat(value(usage, web)).isEqualTo((double) s.memory().usage()).isEqualTo(5 << 20);
    assertThat(value(m.get("container.memory.working_set"), web))
        .isEqualTo((double) s.memory().workingSet());
    assertThat(value(m.get("container.memory.limit"), web))
        .isEqualTo((double) s.memory().effectiveLimit())
        .isEqualTo(64 << 20);
    assertThat(value(m.get("container.memory.available"), web))
        .isEqualTo((double) s.memory().effectiveLimit() - s.memory().workingSet());
    assertThat(m.get("container.task.count").getUnit()).isEqualTo("{task}");
    assertThat(value(m.get("container.task.count"), web))
        .isEqualTo((double) s.pids().current())
        .isEqualTo(7);
    assertThat(value(m.get("container.task.limit"), web))
        .isEqualTo((double) s.pids().limit())
        .isEqualTo(32);
    MetricData pressure = m.get("container.io.linux.pressure.total");
    assertThat(pressure.getUnit()).isEqualTo("s");
    assertThat(pressure.getDoubleSumData().isMonotonic()).isTrue();
    assertThat(
            value(
                pressure, web.toBuilder().put("system.linux.pressure.stall_type", "some").build()))
        .isEqualTo(s.pressure().io().some().totalNs() / 1e9)
        .isEqualTo(0.75);
    assertThat(
            value(
                pressure, web.toBuilder().put("system.linux.pressure.stall_type", "full").build()))
        .isEqualTo(0.5);
    assertThat(
            value(
                m.get("lmctfy.container.count"),
                Attributes.of(AttributeKey.stringKey("app"), "shop")))
        .isEqualTo(1);
  }

  @Test
  void pointsStopForADestroyedContainerAndStartForANewOne() {
    api.create("/batch", ContainerSpec.empty());
    api.create("/batch/a", ACCOUNTED);
    ContainerMetrics.builder(
            api, ContainerSelection.childrenOf("/batch").withContainerNameTag(), openTelemetry)
        .build();
    assertThat(containerNames(collect())).containsExactly("/batch/a");

    api.create("/batch/b", ACCOUNTED);
    api.destroy("/batch/a");
    Map<String, MetricData> m = collect();

    assertThat(containerNames(m)).containsExactly("/batch/b");
    assertThat(value(m.get("lmctfy.container.count"), Attributes.empty())).isEqualTo(1);
  }

  @Test
  void byDefaultTheChildrenMakeOnePointPerInstrumentWhateverTheirNumber() {
    api.create("/batch", ContainerSpec.empty());
    for (int i = 0; i < 20; i++) {
      api.create("/batch/job-" + i, ACCOUNTED);
      usesCpu("/batch/job-" + i, 1_000_000);
    }
    ContainerMetrics.builder(api, ContainerSelection.childrenOf("/batch"), openTelemetry).build();

    Map<String, MetricData> m = collect();

    assertThat(points(m.get("container.cpu.time"))).hasSize(1);
    assertThat(value(m.get("container.cpu.time"), Attributes.empty())).isEqualTo(20.0);
    assertThat(points(m.get("container.cpu.linux.pressure.total"))).hasSize(2); // some, full
    assertThat(m.values())
        .allSatisfy(
            x ->
                assertThat(x.getData().getPoints())
                    .allSatisfy(
                        p ->
                            assertThat(p.getAttributes().asMap().keySet())
                                .extracting(k -> k.getKey())
                                .isSubsetOf("system.linux.pressure.stall_type")));
  }

  @Test
  void aFigureTheContainersLackHasNoPoint() {
    api.create("/web", ACCOUNTED); // no memory limit, no task limit
    ContainerMetrics.builder(api, ContainerSelection.containers(List.of("/web")), openTelemetry)
        .build();

    Map<String, MetricData> m = collect();

    assertThat(m).containsKey("container.memory.usage");
    assertThat(m)
        .doesNotContainKeys(
            "container.memory.limit", "container.memory.available", "container.task.limit");
  }

  @Test
  void aContainerThatCannotBeReadHasNoPointUntilItCanBe() {
    api.create("/web", ACCOUNTED);
    api.create("/db", ACCOUNTED);
    ContainerMetrics.builder(
            api,
            ContainerSelection.containers(List.of("/web", "/db")).withContainerNameTag(),
            openTelemetry)
        .build();

    kernelSets("/db", "memory.current", "garbage"); // the library cannot read the file
    Map<String, MetricData> m = collect();

    assertThat(containerNames(m)).containsExactly("/web");
    assertThat(value(m.get("lmctfy.container.count"), Attributes.empty())).isEqualTo(2);
    kernelSets("/db", "memory.current", "4096");
    assertThat(containerNames(collect())).containsExactlyInAnyOrder("/web", "/db");
  }

  @Test
  void closeStopsObserving() {
    api.create("/web", ACCOUNTED);
    ContainerMetrics metrics =
        ContainerMetrics.builder(api, ContainerSelection.containers(List.of("/web")), openTelemetry)
            .build();
    assertThat(collect()).containsKey("container.cpu.time");

    metrics.close();

    assertThat(collect()).isEmpty();
  }

  @Test
  void theJavadocExampleObservesItsContainers() {
    api.create("/web", ACCOUNTED);
    api.create("/db", ACCOUNTED);

    ContainerSelection web =
        ContainerSelection.containers(List.of("/web", "/db")).withContainerNameTag();
    ContainerMetrics metrics = ContainerMetrics.builder(api, web, openTelemetry).build();
    // observed at each collection until metrics.close(); api stays open until then

    assertThat(containerNames(collect())).containsExactlyInAnyOrder("/web", "/db");
    metrics.close();
  }
}
