package org.lmctfy.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.util.ResourceCalculatorProcessTree;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** The NodeManager's usage figures from the cgroups of the container holding YARN's process. */
class LmctfyProcessTreeTest {
  private static final String NAME = "/hadoop-yarn/container_1700000000000_0001_01_000002";
  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
  private final Hierarchy unified = fs.hierarchies().get(0);
  private final CgroupPath path = CgroupPath.of(NAME);
  private final ContainerApi api = ContainerApi.open(fs);

  private LmctfyProcessTree tree(long pid) throws YarnException {
    LmctfyProcessTree tree =
        new LmctfyProcessTree(Long.toString(pid), options -> ContainerApi.open(fs, options));
    tree.setConf(new YarnConfiguration());
    tree.initialize();
    return tree;
  }

  @Test
  void memoryAndCpuComeFromTheContainersCgroupsAndPressureToo() throws Exception {
    api.create("/hadoop-yarn", ContainerSpec.empty());
    api.create(NAME, ContainerSpec.parse("memory { limit: 64M }"));
    ContainerProcess p = api.get(NAME).run(List.of("sleep", "100"), RunSpec.detached());
    LmctfyProcessTree tree = tree(p.pid());

    fs.kernel().setValue(unified, path, "memory.current", "10485760");
    fs.kernel()
        .setValue(
            unified, path, "memory.stat", "anon 6291456\nfile 4194304\ninactive_file 2097152\n");
    fs.kernel()
        .setValue(
            unified,
            path,
            "cpu.stat",
            "usage_usec 1000000\nuser_usec 600000\nsystem_usec 400000\n");
    fs.kernel()
        .setValue(
            unified,
            path,
            "memory.pressure",
            "some avg10=12.50 avg60=1.00 avg300=0.00 total=7000\nfull avg10=2.00 avg60=0.00 avg300=0.00 total=100\n");
    tree.updateProcessTree();

    assertThat(tree.getVirtualMemorySize(0)).isEqualTo(10485760L);
    assertThat(tree.getRssMemorySize(0)).isEqualTo(10485760L - 2097152L); // the working set
    assertThat(tree.getRssMemorySize(2)).isEqualTo(ResourceCalculatorProcessTree.UNAVAILABLE);
    assertThat(tree.getCumulativeCpuTime()).isEqualTo(1000L);
    assertThat(tree.getCpuUsagePercent())
        .isEqualTo((float) ResourceCalculatorProcessTree.UNAVAILABLE);
    assertThat(tree.pressure().memory().some().avg10()).isEqualTo(12.5);
    assertThat(tree.getProcessTreeDump())
        .contains("lmctfy container " + NAME, Long.toString(p.pid()));

    Thread.sleep(50);
    fs.kernel()
        .setValue(
            unified,
            path,
            "cpu.stat",
            "usage_usec 1040000\nuser_usec 620000\nsystem_usec 420000\n");
    tree.updateProcessTree();
    assertThat(tree.getCumulativeCpuTime()).isEqualTo(1040L);
    assertThat(tree.getCpuUsagePercent()).isBetween(0.1f, 100f); // 40 ms in at least 50 ms
  }

  @Test
  void aProcessInNoContainerBelowTheRootHasNoFiguresAsTheMonitorsProbeOfPid1Needs()
      throws Exception {
    LmctfyProcessTree tree = tree(fs.processes().spawn());
    tree.updateProcessTree();
    assertThat(tree.getRssMemorySize(0)).isEqualTo(ResourceCalculatorProcessTree.UNAVAILABLE);
    assertThat(tree.getCumulativeCpuTime()).isEqualTo(ResourceCalculatorProcessTree.UNAVAILABLE);
    assertThat(tree.getProcessTreeDump()).startsWith("no lmctfy container for process ");
  }

  @Test
  void aWrongSettingIsAYarnExceptionNamingIt() {
    LmctfyProcessTree tree = new LmctfyProcessTree("1", options -> ContainerApi.open(fs, options));
    YarnConfiguration conf = new YarnConfiguration();
    conf.set(Settings.DRIVER, "docker");
    tree.setConf(conf);
    assertThatThrownBy(tree::initialize)
        .isInstanceOf(YarnException.class)
        .hasMessageContaining("lmctfy.yarn.driver");
  }
}
