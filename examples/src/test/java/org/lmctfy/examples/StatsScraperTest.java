package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

class StatsScraperTest {
  @Test
  void printsARowPerContainerWithWhatTheKernelCounts() {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    ContainerApi api = ContainerApi.open(fs);
    api.create("/web", ContainerSpec.parse("memory { limit: 104857600 }"));
    api.create("/web/cache", ContainerSpec.empty());
    Hierarchy memory =
        fs.hierarchies().stream().filter(h -> h.has("memory")).findFirst().orElseThrow();
    Hierarchy cpuacct =
        fs.hierarchies().stream().filter(h -> h.has("cpuacct")).findFirst().orElseThrow();
    fs.kernel().setValue(memory, CgroupPath.of("/web"), "memory.usage_in_bytes", "5242880");
    fs.kernel().setValue(cpuacct, CgroupPath.of("/web"), "cpuacct.usage", "2500000000");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StatsScraper.printTable(api, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertThat(bytes.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(
            "container                           cpu_s         memory          limit  tasks",
            "/web                                2.500        5242880      104857600      0",
            "/web/cache                          0.000              0             -1      0");
  }
}
