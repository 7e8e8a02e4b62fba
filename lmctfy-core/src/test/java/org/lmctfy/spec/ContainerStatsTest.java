package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lmctfy.spec.ContainerStats.CpuStats;
import org.lmctfy.spec.ContainerStats.PidsStats;

class ContainerStatsTest {

  @Test
  void jsonNamesCarryUnitsAndOmitAbsentSections() {
    ContainerStats stats =
        new ContainerStats(
            new CpuStats(30, List.of(10L, 20L), null, null, null),
            null,
            new PidsStats(2, -1L),
            List.of(),
            null,
            null);

    assertThat(stats.toJson())
        .isEqualTo(
            "{\"cpu\":{\"total_ns\":30,\"per_cpu_ns\":[10,20]},\"pids\":{\"current\":2,\"limit\":-1}}");
  }

  @Test
  void hugePagesAndDiscardsHaveSnakeCaseNamesAndAbsentCountsAreLeftOut() {
    ContainerStats stats =
        new ContainerStats(
            null,
            null,
            null,
            List.of(new ContainerStats.DeviceIo(254, 0, 4096, 0, 1, 0, 0L, null)),
            null,
            List.of(new ContainerStats.HugetlbStats("2MB", 2097152, null, -1L, 1L, 0L)));

    assertThat(stats.toJson())
        .isEqualTo(
            "{\"blockio\":[{\"major\":254,\"minor\":0,\"read_bytes\":4096,"
                + "\"write_bytes\":0,\"read_ops\":1,\"write_ops\":0,\"discard_bytes\":0}],\"hugetlb\":[{\"page_size\":\"2MB\","
                + "\"usage\":2097152,\"limit\":-1,\"fail_count\":1,\"reserved_usage\":0}]}");
  }

  @Test
  void textRepeatsPerCpuValues() {
    ContainerStats stats =
        new ContainerStats(
            new CpuStats(3, List.of(1L, 2L), 1L, 2L, null), null, null, null, null, null);

    assertThat(stats.toText())
        .isEqualTo(
            """
        cpu {
          total_ns: 3
          per_cpu_ns: 1
          per_cpu_ns: 2
          user_ns: 1
          system_ns: 2
        }
        """);
  }
}
