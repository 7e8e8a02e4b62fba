package org.lmctfy.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.server.nodemanager.util.NodeManagerHardwareUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.lmctfy.ApiOptions;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * YARN on this machine's kernel: a MiniYARNCluster whose NodeManager uses {@link
 * LmctfyContainerExecutor} (the cgroupfs driver as root, below a scratch cgroup; strict CPU mode, 8
 * vcores; the usage monitor on {@link LmctfyProcessTree}), and an application master in this JVM
 * launching shell containers. Asserted from inside the containers ({@code /proc/self/cgroup} and
 * their limit files), through lmctfy and by walking {@code /sys/fs/cgroup}: an lmctfy container per
 * YARN container with the allocation as its memory limit and the configured CPU weight and cap;
 * nothing left (cgroup, process, even one that left the session and ignores SIGTERM) when the
 * application is killed; an OOM kill reported with YARN's KILLED_EXCEEDED_PMEM and diagnostics
 * naming it; 40 containers at once. Runs as root on the host (hybrid) and in the v2 guest; the
 * systemd driver's: {@link KernelYarnSystemdTest}.
 */
@Tag("kernel")
@Tag("needs-controllers")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KernelYarnClusterTest {
  private ScratchCgroups scratch;
  private MiniYarn yarn;
  private ContainerApi api;
  private Path out;
  private ShellApp app;

  static int scale() {
    String s = System.getenv("LMCTFY_TEST_SCALE");
    return s == null || s.isBlank() ? 1 : Math.max(1, Integer.parseInt(s.strip()));
  }

  /** A wait that grows in the slow guests. */
  static Duration patience(int seconds) {
    return Duration.ofSeconds((long) seconds * scale());
  }

  @BeforeAll
  void startTheCluster() throws Exception {
    scratch = ScratchCgroups.onHost();
    out = Files.createTempDirectory("lmctfy-yarn-test");
    yarn =
        MiniYarn.start(
            "lmctfy-yarn-cluster",
            MiniYarn.conf(
                LmctfyContainerExecutor.class,
                LmctfyProcessTree.class,
                Map.of(
                    Settings.DRIVER, "cgroupfs",
                    Settings.CGROUP_ROOT, scratch.path().toString(),
                    Settings.CPU_STRICT, "true")));
    api =
        ContainerApi.open(
            ApiOptions.builder().driver(ApiOptions.Driver.CGROUPFS).root(scratch.path()).build());
  }

  @AfterEach
  void endTheApp() throws Exception {
    if (app != null) {
      app.close();
      app = null;
    }
  }

  @AfterAll
  void stopTheCluster() throws Exception {
    try {
      if (yarn != null) {
        yarn.close(); // the executor's stop removes the empty /hadoop-yarn
      }
      if (api != null) {
        assertThat(api.exists("/hadoop-yarn")).isFalse();
        api.close();
      }
    } finally {
      if (scratch != null) {
        scratch.close(); // fails if anything is left below it
      }
    }
  }

  private List<Container> launch(int n, int mb, int vcores, Path script) throws Exception {
    app = ShellApp.start(yarn.clientConf(), "lmctfy-yarn-test");
    List<Container> containers = app.allocate(n, mb, vcores, patience(60));
    for (Container c : containers) {
      app.start(c, "bash " + script, Map.of("OUT", out.toString()));
    }
    return containers;
  }

  private static Set<ContainerId> ids(List<Container> containers) {
    return containers.stream().map(Container::getId).collect(Collectors.toSet());
  }

  /** Waits until each container has written {@code <id><suffix>} into the output directory. */
  private void awaitFiles(List<Container> containers, String suffix) throws Exception {
    long end = System.nanoTime() + patience(120).toNanos();
    for (Container c : containers) {
      while (!Files.exists(out.resolve(c.getId() + suffix))) {
        assertThat(System.nanoTime()).as("%s%s written", c.getId(), suffix).isLessThan(end);
        Thread.sleep(50);
      }
    }
  }

  private Set<String> lmctfyContainers() {
    return api.exists("/hadoop-yarn")
        ? Set.copyOf(api.get("/hadoop-yarn").listSubcontainers(ListPolicy.SELF))
        : Set.of();
  }

  private void awaitNoContainerLeft() throws Exception {
    long end = System.nanoTime() + patience(60).toNanos();
    while (!lmctfyContainers().isEmpty() && System.nanoTime() < end) {
      Thread.sleep(100);
    }
    assertThat(lmctfyContainers()).isEmpty();
  }

  private static final String PROBE =
      """
      f="$OUT/$CONTAINER_ID"
      {
        cat /proc/self/cgroup
        while IFS=: read -r n c p; do
          case ",$c," in
            *,memory,*) echo "memory.limit_in_bytes=$(cat /sys/fs/cgroup/memory$p/memory.limit_in_bytes)" ;;
            *,cpu,*) echo "cpu.shares=$(cat /sys/fs/cgroup/cpu$p/cpu.shares)"
                     echo "cpu.cfs_quota_us=$(cat /sys/fs/cgroup/cpu$p/cpu.cfs_quota_us)" ;;
          esac
          if [ "$n" = 0 ] && [ -f "/sys/fs/cgroup$p/memory.max" ]; then
            echo "memory.max=$(cat /sys/fs/cgroup$p/memory.max)"
            echo "cpu.weight=$(cat /sys/fs/cgroup$p/cpu.weight)"
            echo "cpu.max=$(cat /sys/fs/cgroup$p/cpu.max)"
          fi
        done < /proc/self/cgroup
      } > "$f.tmp"
      mv "$f.tmp" "$f"
      while [ ! -e "$OUT/go-$CONTAINER_ID" ] && [ ! -e "$OUT/go" ]; do sleep 0.1; done
      """;

  @Test
  void eachYarnContainerIsAnLmctfyContainerWithItsAllocationAsLimitAndTheConfiguredCpu()
      throws Exception {
    Path probe = MiniYarn.script(out, "probe.sh", PROBE);
    List<Container> containers = launch(3, 96, 2, probe);
    awaitFiles(containers, "");

    // an lmctfy container per YARN container, and no other
    assertThat(lmctfyContainers())
        .isEqualTo(
            containers.stream().map(c -> "/hadoop-yarn/" + c.getId()).collect(Collectors.toSet()));
    // the NodeManager's monitor reads their usage through LmctfyProcessTree
    long end = System.nanoTime() + patience(20).toNanos();
    var monitor = yarn.nodeManager().getNMContext().getContainerManager().getContainersMonitor();
    while (monitor.getContainersUtilization().getPhysicalMemory() <= 0 && System.nanoTime() < end) {
      Thread.sleep(100);
    }
    assertThat(monitor.getContainersUtilization().getPhysicalMemory()).isPositive();

    Files.createFile(out.resolve("go"));
    Map<ContainerId, ContainerStatus> done = app.awaitCompleted(ids(containers), patience(60));
    float cpus = NodeManagerHardwareUtils.getContainersCPUs(yarn.clientConf());
    for (Container c : containers) {
      // what the scheduler gave (the FIFO scheduler gives 1 vcore whatever was asked)
      int vcores = c.getResource().getVirtualCores();
      long shares = 1024L * vcores;
      long quota = Math.max(10L, Math.round(vcores * 1000.0 * cpus / 8)) * 100; // µs of 100 ms
      assertThat(done.get(c.getId()).getExitStatus()).isZero();
      String cgroup = scratch.path() + "/hadoop-yarn/" + c.getId();
      List<String> seen = Files.readAllLines(out.resolve(c.getId().toString()));
      System.out.println(c.getId() + " as YARN ran it:\n  " + String.join("\n  ", seen));
      Map<String, String> values = new HashMap<>();
      List<String> cgroups = new ArrayList<>();
      for (String line : seen) {
        int eq = line.indexOf('=');
        if (eq > 0 && !line.contains(":")) {
          values.put(line.substring(0, eq), line.substring(eq + 1));
        } else if (!line.contains("name=systemd")) {
          cgroups.add(line);
        }
      }
      assertThat(cgroups).isNotEmpty().allSatisfy(line -> assertThat(line).endsWith(":" + cgroup));
      if (values.containsKey("memory.max")) { // cgroup v2
        assertThat(values)
            .containsEntry("memory.max", Long.toString(c.getResource().getMemorySize() << 20))
            .containsEntry("cpu.weight", Long.toString(weight(shares)))
            .containsEntry("cpu.max", quota + " 100000");
      } else {
        assertThat(values)
            .containsEntry(
                "memory.limit_in_bytes", Long.toString(c.getResource().getMemorySize() << 20))
            .containsEntry("cpu.shares", Long.toString(shares))
            .containsEntry("cpu.cfs_quota_us", Long.toString(quota));
      }
      assertThat(MiniYarn.cgroupsNamed(c.getId().toString())).isEmpty();
    }
    app.finish();
    awaitNoContainerLeft();
  }

  /** cpu.weight of {@code shares} as runc, crun and lmctfy map it: 1024 is 100, the default. */
  private static long weight(long shares) {
    double l = Math.log(shares) / Math.log(2);
    return (long) Math.ceil(Math.pow(10, (l * l + 125 * l) / 612.0 - 7.0 / 34.0));
  }

  private static final String STUBBORN =
      """
      setsid bash -c 'trap "" TERM; exec sleep 600' < /dev/null > /dev/null 2>&1 &
      touch "$OUT/$CONTAINER_ID.up"
      sleep 600
      """;

  @Test
  void killingTheApplicationDestroysEveryContainerAndEveryProcessEvenThoseThatLeftTheSession()
      throws Exception {
    Path script = MiniYarn.script(out, "stubborn.sh", STUBBORN);
    List<Container> containers = launch(3, 64, 1, script);
    awaitFiles(containers, ".up");
    List<Long> pids = new ArrayList<>();
    for (Container c : containers) {
      List<Long> in = api.get("/hadoop-yarn/" + c.getId()).listProcesses(ListPolicy.RECURSIVE);
      assertThat(in.size()).as("processes of %s", c.getId()).isGreaterThanOrEqualTo(3);
      pids.addAll(in);
    }

    app.kill();
    awaitNoContainerLeft();
    for (long pid : pids) {
      assertThat(MiniYarn.running(pid)).as("pid %d runs", pid).isFalse();
    }
    for (Container c : containers) {
      assertThat(MiniYarn.cgroupsNamed(c.getId().toString())).isEmpty();
    }
  }

  @Test
  void aContainerPastItsAllocationIsKilledByTheKernelAndYarnSaysItWasTheOomKiller()
      throws Exception {
    Path script =
        MiniYarn.script(out, "hog.sh", "head -c 400000000 /dev/zero | tail > /dev/null\n");
    List<Container> containers = launch(1, 64, 1, script);
    ContainerStatus status =
        app.awaitCompleted(ids(containers), patience(60)).get(containers.get(0).getId());
    System.out.println(
        "OOM: exit status "
            + status.getExitStatus()
            + ", diagnostics:\n"
            + status.getDiagnostics());
    assertThat(status.getExitStatus()).isEqualTo(ContainerExitStatus.KILLED_EXCEEDED_PMEM);
    assertThat(status.getDiagnostics())
        .contains(
            "killed by the kernel's OOM killer",
            "lmctfy container /hadoop-yarn/" + containers.get(0).getId(),
            "memory limit of 67108864 bytes",
            "the allocation of 64 MB");
    app.finish();
    awaitNoContainerLeft();
  }

  /**
   * 40 here; in the emulated guests (LMCTFY_TEST_SCALE 10) 4, as each launch costs seconds there.
   */
  @Test
  void fortyContainersAtOnceAreFortyLmctfyContainers() throws Exception {
    int n = Math.max(4, 40 / scale());
    Path probe = MiniYarn.script(out, "probe40.sh", PROBE);
    List<Container> containers = launch(n, 32, 1, probe);
    awaitFiles(containers, "");
    assertThat(lmctfyContainers()).hasSize(n);
    for (Container c : containers) {
      Files.createFile(out.resolve("go-" + c.getId()));
    }
    Map<ContainerId, ContainerStatus> done = app.awaitCompleted(ids(containers), patience(120));
    assertThat(done.values()).allSatisfy(s -> assertThat(s.getExitStatus()).isZero());
    app.finish();
    awaitNoContainerLeft();
  }
}
