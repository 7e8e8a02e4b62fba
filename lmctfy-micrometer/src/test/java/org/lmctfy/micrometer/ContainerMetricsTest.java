package org.lmctfy.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.junit.FakeCgroups;

@FakeCgroups(layout = FakeLayout.V2)
class ContainerMetricsTest {
  private static final ContainerSpec ACCOUNTED = ContainerSpec.parse("memory { limit: -1 }");

  FakeCgroupFs fs;
  ContainerApi api;
  MockClock clock;
  SimpleMeterRegistry registry;

  @BeforeEach
  void registry() {
    clock = new MockClock();
    registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
  }

  private void kernelSets(String container, String file, String content) {
    fs.kernel()
        .setValue(
            fs.hierarchies().get(0), CgroupPath.of(container).under(api.root()), file, content);
  }

  private void usesCpu(String container, long usec) {
    kernelSets(container, "cpu.stat", "usage_usec " + usec + "\nuser_usec 0\nsystem_usec 0\n");
  }

  /** The next scrape reads the containers again. */
  private void nextScrape() {
    clock.add(Duration.ofSeconds(2));
  }

  private Set<String> containersWithMeters() {
    return registry.getMeters().stream()
        .map(m -> m.getId().getTag(ContainerSelection.CONTAINER_NAME))
        .filter(n -> n != null)
        .collect(Collectors.toSet());
  }

  private double value(Meter m) {
    return m.measure().iterator().next().getValue();
  }

  @Test
  void eachMeterIsItsFigureOfApiStatsInItsUnit() {
    api.create("/web", ContainerSpec.parse("memory { limit: 64M } pids { limit: 32 }"));
    usesCpu("/web", 2_500_000);
    kernelSets("/web", "memory.current", Long.toString(5 << 20));
    kernelSets("/web", "pids.current", "7");
    kernelSets(
        "/web",
        "memory.pressure",
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=750000\n"
            + "full avg10=0.00 avg60=0.00 avg300=0.00 total=500000\n");

    ContainerMetrics.builder(
            api, ContainerSelection.containers(List.of("/web")).withContainerNameTag())
        .tags(Tags.of("app", "shop"))
        .build()
        .bindTo(registry);

    ContainerStats s = api.stats(List.of("/web"), StatsType.SUMMARY).get("/web");
    Tags web = Tags.of("app", "shop", "container.name", "/web");
    FunctionCounter cpu = registry.get("container.cpu.time").tags(web).functionCounter();
    assertThat(cpu.getId().getBaseUnit()).isEqualTo("seconds");
    assertThat(cpu.count()).isEqualTo(s.cpu().totalNs() / 1e9).isEqualTo(2.5);
    Gauge usage = registry.get("container.memory.usage").tags(web).gauge();
    assertThat(usage.getId().getBaseUnit()).isEqualTo("bytes");
    assertThat(usage.value()).isEqualTo((double) s.memory().usage()).isEqualTo(5 << 20);
    assertThat(registry.get("container.memory.working_set").tags(web).gauge().value())
        .isEqualTo((double) s.memory().workingSet());
    assertThat(registry.get("container.memory.limit").tags(web).gauge().value())
        .isEqualTo((double) s.memory().effectiveLimit())
        .isEqualTo(64 << 20);
    assertThat(registry.get("container.memory.available").tags(web).gauge().value())
        .isEqualTo((double) s.memory().effectiveLimit() - s.memory().workingSet());
    Gauge tasks = registry.get("container.task.count").tags(web).gauge();
    assertThat(tasks.getId().getBaseUnit()).isEqualTo("tasks");
    assertThat(tasks.value()).isEqualTo((double) s.pids().current()).isEqualTo(7);
    assertThat(registry.get("container.task.limit").tags(web).gauge().value())
        .isEqualTo((double) s.pids().limit())
        .isEqualTo(32);
    FunctionCounter some =
        registry
            .get("container.memory.linux.pressure")
            .tags(web)
            .tag("system.linux.pressure.stall_type", "some")
            .functionCounter();
    assertThat(some.getId().getBaseUnit()).isEqualTo("seconds");
    assertThat(some.count())
        .isEqualTo(s.pressure().memory().some().totalNs() / 1e9)
        .isEqualTo(0.75);
    assertThat(
            registry
                .get("container.memory.linux.pressure")
                .tags(web)
                .tag("system.linux.pressure.stall_type", "full")
                .functionCounter()
                .count())
        .isEqualTo(0.5);
    assertThat(registry.get("lmctfy.container.count").tags("app", "shop").gauge().value())
        .isEqualTo(1);
  }

  @Test
  void onePollOfAScrapeReadsTheContainersAndTheRestReuseItUntilCacheForHasPassed() {
    api.create("/web", ACCOUNTED);
    usesCpu("/web", 1_000_000);
    ContainerMetrics.builder(api, ContainerSelection.containers(List.of("/web")))
        .cacheFor(Duration.ofSeconds(10))
        .build()
        .bindTo(registry);
    FunctionCounter cpu = registry.get("container.cpu.time").functionCounter();

    usesCpu("/web", 3_000_000);
    clock.add(Duration.ofSeconds(9));
    assertThat(cpu.count()).isEqualTo(1.0); // the same scrape's read
    clock.add(Duration.ofSeconds(1));
    assertThat(cpu.count()).isEqualTo(3.0);
  }

  @Test
  void metersAppearAndDisappearWithTheChildrenOfTheParent() {
    api.create("/batch", ContainerSpec.empty());
    api.create("/batch/a", ACCOUNTED);
    ContainerMetrics.builder(api, ContainerSelection.childrenOf("/batch").withContainerNameTag())
        .build()
        .bindTo(registry);
    Gauge count = registry.get("lmctfy.container.count").gauge();
    assertThat(containersWithMeters()).containsExactly("/batch/a");

    api.create("/batch/b", ACCOUNTED);
    nextScrape();
    assertThat(count.value()).isEqualTo(2);
    assertThat(containersWithMeters()).containsExactlyInAnyOrder("/batch/a", "/batch/b");

    api.destroy("/batch/a");
    api.destroy("/batch/b");
    nextScrape();
    assertThat(count.value()).isZero();
    assertThat(containersWithMeters()).isEmpty();
    assertThat(registry.getMeters()).hasSize(1); // the count alone: nothing leaked
  }

  @Test
  void byDefaultTheChildrenMakeOneSeriesWhateverTheirNumber() {
    api.create("/batch", ContainerSpec.empty());
    for (int i = 0; i < 20; i++) {
      api.create("/batch/job-" + i, ACCOUNTED);
      usesCpu("/batch/job-" + i, 1_000_000);
    }
    ContainerMetrics.builder(api, ContainerSelection.childrenOf("/batch")).build().bindTo(registry);

    Set<String> tagKeys =
        registry.getMeters().stream()
            .flatMap(m -> m.getId().getTags().stream())
            .map(Tag::getKey)
            .collect(Collectors.toSet());
    assertThat(tagKeys).containsExactly("system.linux.pressure.stall_type");
    assertThat(registry.find("container.cpu.time").functionCounters()).hasSize(1);
    assertThat(registry.get("container.cpu.time").functionCounter().count()).isEqualTo(20.0);
    assertThat(registry.getMeters()).hasSizeLessThan(20);
  }

  @Test
  void aLabelMakesASeriesPerLabel() {
    api.create("/jobs", ContainerSpec.empty());
    for (String name : List.of("map-1", "map-2", "reduce-1")) {
      api.create("/jobs/" + name, ACCOUNTED);
    }
    usesCpu("/jobs/map-1", 1_000_000);
    usesCpu("/jobs/map-2", 2_000_000);
    ContainerMetrics.builder(
            api,
            ContainerSelection.childrenOf("/jobs").withLabel(n -> n.replaceAll(".*/|-[0-9]+$", "")))
        .build()
        .bindTo(registry);

    assertThat(registry.find("container.cpu.time").functionCounters())
        .extracting(m -> m.getId().getTag(ContainerSelection.LABEL))
        .containsExactlyInAnyOrder("map", "reduce");
    assertThat(
            registry
                .get("container.cpu.time")
                .tag(ContainerSelection.LABEL, "map")
                .functionCounter()
                .count())
        .isEqualTo(3.0);
  }

  @Test
  void aFigureTheContainersLackHasNoMeter() {
    api.create("/web", ACCOUNTED); // no memory limit, no task limit

    ContainerMetrics.builder(api, ContainerSelection.containers(List.of("/web")))
        .build()
        .bindTo(registry);

    assertThat(registry.find("container.memory.usage").gauges()).hasSize(1);
    assertThat(registry.find("container.memory.limit").gauges()).isEmpty();
    assertThat(registry.find("container.memory.available").gauges()).isEmpty();
    assertThat(registry.find("container.task.limit").gauges()).isEmpty();

    api.get("/web")
        .update(ContainerSpec.parse("memory { limit: 64M }"), org.lmctfy.UpdatePolicy.DIFF);
    nextScrape();
    registry.get("lmctfy.container.count").gauge().value();
    assertThat(registry.get("container.memory.limit").gauge().value()).isEqualTo(64 << 20);
  }

  @Test
  @FakeCgroups(layout = FakeLayout.V1)
  void onCgroupV1ThereIsNoPressureMeter() {
    api.create("/web", ACCOUNTED);

    ContainerMetrics.builder(api, ContainerSelection.containers(List.of("/web")))
        .build()
        .bindTo(registry);

    assertThat(registry.find("container.cpu.time").functionCounters()).hasSize(1);
    assertThat(registry.getMeters()).noneMatch(m -> m.getId().getName().contains("pressure"));
  }

  @Test
  void aContainerThatCannotBeReadReportsNaNAndKeepsItsMetersUntilItCanBe() {
    api.create("/web", ACCOUNTED);
    usesCpu("/web", 1_000_000);
    ContainerMetrics.builder(
            api, ContainerSelection.containers(List.of("/web")).withContainerNameTag())
        .build()
        .bindTo(registry);
    FunctionCounter cpu = registry.get("container.cpu.time").functionCounter();

    kernelSets("/web", "memory.current", "garbage"); // the library cannot read the file
    nextScrape();
    assertThat(cpu.count()).isNaN();
    assertThat(registry.get("container.memory.usage").gauge().value()).isNaN();
    assertThat(registry.find("container.cpu.time").functionCounters()).containsExactly(cpu);

    kernelSets("/web", "memory.current", "4096");
    nextScrape();
    assertThat(cpu.count()).isEqualTo(1.0);
  }

  @Test
  void aBinderMayServeSeveralRegistries() {
    api.create("/web", ACCOUNTED);
    usesCpu("/web", 1_000_000);
    ContainerMetrics metrics =
        ContainerMetrics.builder(api, ContainerSelection.containers(List.of("/web"))).build();
    SimpleMeterRegistry other = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);

    metrics.bindTo(registry);
    metrics.bindTo(other);

    assertThat(other.get("container.cpu.time").functionCounter().count()).isEqualTo(1.0);
    assertThat(registry.get("container.cpu.time").functionCounter().count()).isEqualTo(1.0);
  }

  @Test
  void aCacheForThatIsNotPositiveIsInvalidArgument() {
    CgroupAssertions.assertThatLmctfyException(
            () ->
                ContainerMetrics.builder(api, ContainerSelection.childrenOf("/"))
                    .cacheFor(Duration.ZERO)
                    .build())
        .hasCode(ErrorCode.INVALID_ARGUMENT)
        .hasMessageContaining("cacheFor");
  }
}
