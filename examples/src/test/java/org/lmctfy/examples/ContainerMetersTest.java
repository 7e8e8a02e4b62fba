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
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeRun;

class ContainerMetersTest {
  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
  private final ContainerApi api = ContainerApi.open(fs);

  private Hierarchy with(String controller) {
    return fs.hierarchies().stream().filter(h -> h.has(controller)).findFirst().orElseThrow();
  }

  @Test
  void printsEachChildsMetersBesideItsStats() {
    api.create("/shop", ContainerSpec.empty());
    api.create("/shop/web", ContainerSpec.parse("memory { limit: 64M } pids { limit: 32 }"));
    fs.kernel()
        .setValue(with("cpuacct"), CgroupPath.of("/shop/web"), "cpuacct.usage", "1500000000");
    fs.kernel()
        .setValue(with("memory"), CgroupPath.of("/shop/web"), "memory.usage_in_bytes", "5242880");
    fs.kernel().setValue(with("pids"), CgroupPath.of("/shop/web"), "pids.current", "3");
    Hierarchy unified =
        fs.hierarchies().stream()
            .filter(h -> h.version() == org.lmctfy.cgroupfs.CgroupVersion.V2)
            .findFirst()
            .orElseThrow();
    fs.kernel()
        .setValue(
            unified,
            CgroupPath.of("/shop/web"),
            "cpu.pressure",
            "some avg10=0.00 avg60=0.00 avg300=0.00 total=250000\n"
                + "full avg10=0.00 avg60=0.00 avg300=0.00 total=125000\n");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    ContainerMeters.print(api, "/shop", new PrintStream(bytes, true, StandardCharsets.UTF_8));

    assertThat(bytes.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(
            "lmctfy.container.count = 1",
            "/shop/web",
            "  container.cpu.linux.pressure{full}                      0.125 seconds   pressure.cpu.full.total_ns 125000000",
            "  container.cpu.linux.pressure{some}                       0.25 seconds   pressure.cpu.some.total_ns 250000000",
            "  container.cpu.time                                        1.5 seconds   cpu.total_ns 1500000000",
            "  container.io.linux.pressure{full}                           0 seconds   pressure.io.full.total_ns 0",
            "  container.io.linux.pressure{some}                           0 seconds   pressure.io.some.total_ns 0",
            "  container.memory.available                           61865984 bytes     effective_limit - working_set 61865984",
            "  container.memory.limit                               67108864 bytes     memory.effective_limit 67108864",
            "  container.memory.linux.pressure{full}                       0 seconds   pressure.memory.full.total_ns 0",
            "  container.memory.linux.pressure{some}                       0 seconds   pressure.memory.some.total_ns 0",
            "  container.memory.usage                                5242880 bytes     memory.usage 5242880",
            "  container.memory.working_set                          5242880 bytes     memory.working_set 5242880",
            "  container.task.count                                        3 tasks     pids.current 3",
            "  container.task.limit                                       32 tasks     pids.limit 32");
  }

  @Test
  void theDemoPrintsItsTwoContainersAndLeavesNothing() throws InterruptedException {
    fs.processes().onRun(command -> command.contains("exec sleep 60") ? null : FakeRun.exits(0));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    ContainerMeters.demo(api, new PrintStream(bytes, true, StandardCharsets.UTF_8));

    String pid = Long.toString(ProcessHandle.current().pid());
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains(
            "lmctfy.container.count = 2",
            "/lmctfy-metrics-demo-" + pid + "/job\n",
            "/lmctfy-metrics-demo-" + pid + "/web\n",
            "container.memory.limit                               67108864 bytes");
    CgroupAssertions.assertThat(fs).hasNoContainer("/lmctfy-metrics-demo-" + pid);
  }
}
