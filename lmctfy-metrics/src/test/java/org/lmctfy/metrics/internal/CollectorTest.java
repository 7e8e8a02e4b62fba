package org.lmctfy.metrics.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.metrics.internal.Figure.CPU_PRESSURE_FULL;
import static org.lmctfy.metrics.internal.Figure.CPU_TIME;
import static org.lmctfy.metrics.internal.Figure.MEMORY_AVAILABLE;
import static org.lmctfy.metrics.internal.Figure.MEMORY_LIMIT;
import static org.lmctfy.metrics.internal.Figure.MEMORY_USAGE;
import static org.lmctfy.metrics.internal.Figure.MEMORY_WORKING_SET;
import static org.lmctfy.metrics.internal.Figure.TASK_COUNT;
import static org.lmctfy.metrics.internal.Figure.TASK_LIMIT;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.junit.FakeCgroups;
import org.slf4j.event.Level;

@FakeCgroups(layout = FakeLayout.V2)
class CollectorTest {
  /** Memory accounted, no limit: a child of a container without a spec would have no memory. */
  private static final ContainerSpec ACCOUNTED = ContainerSpec.parse("memory { limit: -1 }");

  FakeCgroupFs fs;
  ContainerApi api;

  private void kernelSets(String container, String file, String content) {
    Hierarchy v2 = fs.hierarchies().get(0);
    fs.kernel().setValue(v2, CgroupPath.of(container).under(api.root()), file, content);
  }

  private void uses(String container, long cpuUsec, long memoryBytes) {
    kernelSets(container, "cpu.stat", "usage_usec " + cpuUsec + "\nuser_usec 0\nsystem_usec 0\n");
    kernelSets(container, "memory.current", Long.toString(memoryBytes));
  }

  private Collector collector(ContainerSelection selection, RecordingLogger log) {
    return new Collector(api, selection, log);
  }

  @Test
  void aSeriesPerContainerHasEachFigureOfItsStats() {
    api.create("/web", ContainerSpec.parse("memory { limit: 64M } pids { limit: 32 }"));
    uses("/web", 2_500_000, 5 << 20);
    kernelSets("/web", "pids.current", "7");
    kernelSets(
        "/web",
        "cpu.pressure",
        "some avg10=1.00 avg60=0.50 avg300=0.10 total=1500000\n"
            + "full avg10=0.00 avg60=0.00 avg300=0.00 total=250000\n");
    ContainerSelection web = ContainerSelection.containers(List.of("/web")).withContainerNameTag();

    Scrape scrape = collector(web, new RecordingLogger()).collect();

    ContainerStats stats = api.stats(List.of("/web"), StatsType.SUMMARY).get("/web");
    assertThat(scrape.series()).containsExactly("/web");
    assertThat(scrape.value("/web", CPU_TIME))
        .isEqualTo(stats.cpu().totalNs() / 1e9)
        .isEqualTo(2.5);
    assertThat(scrape.value("/web", MEMORY_USAGE))
        .isEqualTo((double) stats.memory().usage())
        .isEqualTo(5 << 20);
    assertThat(scrape.value("/web", MEMORY_WORKING_SET))
        .isEqualTo((double) stats.memory().workingSet());
    assertThat(scrape.value("/web", MEMORY_LIMIT))
        .isEqualTo((double) stats.memory().effectiveLimit())
        .isEqualTo(64 << 20);
    assertThat(scrape.value("/web", MEMORY_AVAILABLE))
        .isEqualTo((double) stats.memory().effectiveLimit() - stats.memory().workingSet());
    assertThat(scrape.value("/web", TASK_COUNT))
        .isEqualTo((double) stats.pids().current())
        .isEqualTo(7);
    assertThat(scrape.value("/web", TASK_LIMIT))
        .isEqualTo((double) stats.pids().limit())
        .isEqualTo(32);
    assertThat(scrape.value("/web", Figure.CPU_PRESSURE_SOME))
        .isEqualTo(stats.pressure().cpu().some().totalNs() / 1e9)
        .isEqualTo(1.5);
    assertThat(scrape.value("/web", CPU_PRESSURE_FULL)).isEqualTo(0.25);
    assertThat(scrape.containers()).isEqualTo(1);
  }

  @Test
  void oneSeriesSumsItsContainersAndLacksAFigureOneOfThemLacks() {
    api.create("/batch", ContainerSpec.empty());
    api.create("/batch/a", ContainerSpec.parse("memory { limit: 64M }"));
    api.create("/batch/b", ACCOUNTED); // no limit of its own, nor above it
    uses("/batch/a", 1_000_000, 1 << 20);
    uses("/batch/b", 2_000_000, 3 << 20);

    Scrape scrape =
        collector(ContainerSelection.childrenOf("/batch"), new RecordingLogger()).collect();

    assertThat(scrape.series()).containsExactly("");
    assertThat(scrape.value("", CPU_TIME)).isEqualTo(3.0);
    assertThat(scrape.value("", MEMORY_USAGE)).isEqualTo(4 << 20);
    assertThat(scrape.value("", MEMORY_LIMIT)).isNaN(); // b has none: the sum has none
    assertThat(scrape.value("", MEMORY_AVAILABLE)).isNaN();
    assertThat(scrape.containers()).isEqualTo(2);
  }

  @Test
  void aLabelSumsItsContainersAndNullLeavesOneOut() {
    api.create("/jobs", ContainerSpec.empty());
    for (String name : List.of("map-1", "map-2", "reduce-1", "other")) {
      api.create("/jobs/" + name, ACCOUNTED);
    }
    uses("/jobs/map-1", 1_000_000, 1);
    uses("/jobs/map-2", 2_000_000, 2);
    uses("/jobs/reduce-1", 4_000_000, 4);
    uses("/jobs/other", 8_000_000, 8);
    ContainerSelection byKind =
        ContainerSelection.childrenOf("/jobs")
            .withLabel(n -> n.endsWith("other") ? null : n.replaceAll(".*/|-[0-9]+$", ""));

    Scrape scrape = collector(byKind, new RecordingLogger()).collect();

    assertThat(scrape.series()).containsExactlyInAnyOrder("map", "reduce");
    assertThat(scrape.value("map", CPU_TIME)).isEqualTo(3.0);
    assertThat(scrape.value("map", MEMORY_USAGE)).isEqualTo(3);
    assertThat(scrape.value("reduce", CPU_TIME)).isEqualTo(4.0);
    assertThat(scrape.containers()).isEqualTo(3);
  }

  @Test
  void aSeriesCounterNeverGoesDownWhenAContainerLeavesItOrIsMadeAgain() {
    api.create("/batch", ContainerSpec.empty());
    api.create("/batch/a", ACCOUNTED);
    api.create("/batch/b", ACCOUNTED);
    uses("/batch/a", 2_000_000, 1 << 20);
    uses("/batch/b", 3_000_000, 1 << 20);
    Collector collector = collector(ContainerSelection.childrenOf("/batch"), new RecordingLogger());
    assertThat(collector.collect().value("", CPU_TIME)).isEqualTo(5.0);

    api.destroy("/batch/b");
    uses("/batch/a", 2_500_000, 1 << 20);
    Scrape afterDestroy = collector.collect();
    assertThat(afterDestroy.value("", CPU_TIME)).isEqualTo(5.5); // b's 3 s stay counted
    assertThat(afterDestroy.value("", MEMORY_USAGE)).isEqualTo(1 << 20); // a gauge does not

    api.destroy("/batch/a");
    api.create("/batch/a", ACCOUNTED); // made again: its counter starts over
    uses("/batch/a", 1_000_000, 1 << 20);
    assertThat(collector.collect().value("", CPU_TIME)).isEqualTo(6.5);
  }

  @Test
  void aSeriesWithoutContainersStartsAfreshAndAFixedNameIsReadOnceItExists() {
    Collector collector =
        collector(ContainerSelection.containers(List.of("/job")), new RecordingLogger());
    Scrape none = collector.collect();
    assertThat(none.series()).isEmpty();
    assertThat(none.containers()).isZero();

    api.create("/job", ContainerSpec.empty());
    uses("/job", 4_000_000, 1);
    assertThat(collector.collect().value("", CPU_TIME)).isEqualTo(4.0);

    api.destroy("/job");
    assertThat(collector.collect().series()).isEmpty(); // gone: its series with it
    api.create("/job", ContainerSpec.empty());
    uses("/job", 1_000_000, 1);
    assertThat(collector.collect().value("", CPU_TIME)).isEqualTo(1.0);
  }

  @Test
  void aContainerDestroyedBetweenListingAndReadingIsLeftOutAndSaidOnceAtDebug() {
    api.create("/batch", ContainerSpec.empty());
    api.create("/batch/a", ACCOUNTED);
    api.create("/batch/b", ACCOUNTED);
    uses("/batch/a", 1_000_000, 1);
    RecordingLogger log = new RecordingLogger();
    RacingApi racing = new RacingApi(api);
    Collector collector =
        new Collector(racing, ContainerSelection.childrenOf("/batch").withContainerNameTag(), log);
    racing.beforeStats = () -> api.destroy("/batch/b"); // after the listing, before the read

    Scrape scrape = collector.collect();

    assertThat(scrape.series()).containsExactly("/batch/a");
    assertThat(scrape.complete("/batch/a")).isTrue();
    assertThat(scrape.value("/batch/a", CPU_TIME)).isEqualTo(1.0);
    assertThat(scrape.containers()).isEqualTo(1);
    assertThat(log.events(Level.DEBUG)).anyMatch(m -> m.contains("/batch/b is gone"));
    assertThat(log.events(Level.WARN)).isEmpty();
    CgroupAssertions.assertThat(fs).hasNoContainer("/batch/b");
  }

  @Test
  void aContainerThatCannotBeReadMakesItsSeriesNaNAndIsSaidOnceAtWarnUntilItCanBe() {
    api.create("/a", ContainerSpec.empty());
    api.create("/b", ContainerSpec.empty());
    uses("/a", 1_000_000, 1);
    RecordingLogger log = new RecordingLogger();
    RacingApi failing = new RacingApi(api);
    failing.failing = "/b";
    Collector collector =
        new Collector(
            failing,
            ContainerSelection.containers(List.of("/a", "/b")).withContainerNameTag(),
            log);

    Scrape first = collector.collect();
    Scrape second = collector.collect();

    assertThat(first.complete("/a")).isTrue();
    assertThat(first.value("/a", CPU_TIME)).isEqualTo(1.0);
    assertThat(first.series()).contains("/b");
    assertThat(first.complete("/b")).isFalse();
    assertThat(first.value("/b", CPU_TIME)).isNaN();
    assertThat(first.value("/b", MEMORY_USAGE)).isNaN();
    assertThat(second.complete("/b")).isFalse();
    assertThat(log.events(Level.WARN))
        .singleElement()
        .satisfies(
            m -> assertThat(m).contains("cannot read the stats of /b", "14: stats of /b: EAGAIN"));

    failing.failing = null;
    assertThat(collector.collect().complete("/b")).isTrue();
    failing.failing = "/b";
    collector.collect();
    assertThat(log.events(Level.WARN)).hasSize(2); // a new failure is said again
  }

  @Test
  void childrenThatCannotBeListedMakeEveryValueNaNAndAreSaidOnceAtWarn() {
    api.create("/batch", ContainerSpec.empty());
    RecordingLogger log = new RecordingLogger();
    RacingApi failing = new RacingApi(api);
    failing.failing = "/batch";
    Collector collector = new Collector(failing, ContainerSelection.childrenOf("/batch"), log);

    Scrape scrape = collector.collect();
    collector.collect();

    assertThat(scrape.failed()).isTrue();
    assertThat(scrape.series()).isEmpty();
    assertThat(scrape.containers()).isNaN();
    assertThat(scrape.value("", CPU_TIME)).isNaN();
    assertThat(log.events(Level.WARN))
        .singleElement()
        .satisfies(m -> assertThat(m).contains("cannot list the children of /batch"));
  }

  @Test
  void aParentThatDoesNotExistYetHasNoContainersAndIsSaidOnceAtInfo() {
    RecordingLogger log = new RecordingLogger();
    Collector collector = collector(ContainerSelection.childrenOf("/later"), log);

    Scrape none = collector.collect();
    collector.collect();
    api.create("/later", ContainerSpec.empty());
    api.create("/later/a", ACCOUNTED);
    Scrape one = collector.collect();

    assertThat(none.failed()).isFalse();
    assertThat(none.containers()).isZero();
    assertThat(one.containers()).isEqualTo(1);
    assertThat(log.events(Level.INFO)).singleElement().asString().contains("/later");
    assertThat(log.events(Level.WARN)).isEmpty();
  }

  @Test
  void aNameTheApiCannotTakeIsInvalidArgumentWhenTheCollectorIsMade() {
    CgroupAssertions.assertThatLmctfyException(
            () ->
                collector(ContainerSelection.childrenOf("/jobs/memory.max"), new RecordingLogger()))
        .hasCode(ErrorCode.INVALID_ARGUMENT);
  }

  /** The API, with a hook before each stats call and one container whose stats fail. */
  private static final class RacingApi extends DelegatingApi {
    Runnable beforeStats = () -> {};
    String failing;

    RacingApi(ContainerApi api) {
      super(api);
    }

    @Override
    public Map<String, ContainerStats> stats(java.util.Collection<String> names, StatsType type) {
      beforeStats.run();
      beforeStats = () -> {};
      if (failing != null && names.contains(failing)) {
        throw new LmctfyException(ErrorCode.UNAVAILABLE, "stats of " + failing + ": EAGAIN");
      }
      return super.stats(names, type);
    }

    @Override
    public org.lmctfy.Container get(String name) {
      if (name.equals(failing)) {
        throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, name + " is partial");
      }
      return super.get(name);
    }
  }
}
