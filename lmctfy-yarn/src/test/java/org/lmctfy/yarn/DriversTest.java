package org.lmctfy.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSystemd;

/**
 * Every driver under the executor, through ApiOptions alone, on the fake: the systemd driver (a
 * NodeManager in an ordinary service gets its containers in lmctfy.service, which is gone once the
 * NodeManager stops with none left) and a delegated subtree run by its tenant. The kernel side:
 * {@link KernelYarnClusterTest} (cgroupfs as root) and {@link KernelYarnSystemdTest}.
 */
class DriversTest {
  /** Launches one container, checks it is at {@code cgroup} with its limit, ends it. */
  private static void launchOne(FakeNode node, FakeCgroupFs fs, String cgroup) throws Exception {
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 2), 128, 1);
    CompletableFuture<Integer> launch = node.launch(c);
    ContainerApi api = node.api();
    String name = "/hadoop-yarn/" + c.getContainerId();
    for (int i = 0;
        i < 500 && (!api.exists(name) || api.get(name).listProcesses(ListPolicy.SELF).isEmpty());
        i++) {
      Thread.sleep(10);
    }
    long pid = api.get(name).listProcesses(ListPolicy.SELF).get(0);
    CgroupAssertions.assertThat(fs).hasCgroup(cgroup);
    assertThat(
            fs.read(
                    fs.hierarchies().get(0),
                    CgroupPath.of(cgroup.substring(cgroup.indexOf(':') + 1)),
                    "memory.max")
                .strip())
        .isEqualTo("134217728");
    fs.processes().exit(pid, 0);
    assertThat(launch.get(10, TimeUnit.SECONDS)).isZero();
    CgroupAssertions.assertThat(fs).hasNoCgroup(cgroup);
  }

  @Test
  void aNodeManagerInAPlainServiceGetsItsContainersInLmctfyServiceAndLeavesNoUnit()
      throws Exception {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
    FakeSystemd systemd = FakeSystemd.on(fs);
    try (FakeNode node = new FakeNode(fs, options -> ContainerApi.open(fs, systemd, options))) {
      node.init();
      launchOne(node, fs, "unified:/system.slice/lmctfy.service/hadoop-yarn/" + FakeNode.id(1, 2));
      assertThat(systemd.unit("lmctfy.service")).isPresent();
    }
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
    CgroupAssertions.assertThat(fs).hasNoCgroup("unified:/system.slice/lmctfy.service");
  }

  @Test
  void aTenantsNodeManagerWorksBelowItsDelegatedSubtree() throws Exception {
    int uid = 64_999;
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
    ContainerApi root = ContainerApi.open(fs);
    root.create(
        "/t", ContainerSpec.parse("memory { limit: 1G } owner: " + uid + " owner_group: " + uid));
    root.create("/t/session", ContainerSpec.empty());
    root.get("/t/session").enter(List.of(fs.selfPid()));
    try (FakeNode node =
        new FakeNode(fs, options -> ContainerApi.open(fs.asUser(uid, uid), options))) {
      node.conf.set(Settings.CGROUP_ROOT, "/t");
      node.conf.set(Settings.DRIVER, "cgroupfs");
      node.init();
      assertThat(node.api().root()).isEqualTo(CgroupPath.of("/t"));
      launchOne(node, fs, "unified:/t/hadoop-yarn/" + FakeNode.id(1, 2));
    }
    CgroupAssertions.assertThat(fs).hasNoCgroup("unified:/t/hadoop-yarn");
  }

  static org.apache.hadoop.conf.Configuration conf(String... keysAndValues) {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    for (int i = 0; i < keysAndValues.length; i += 2) {
      conf.set(keysAndValues[i], keysAndValues[i + 1]);
    }
    return conf;
  }
}
