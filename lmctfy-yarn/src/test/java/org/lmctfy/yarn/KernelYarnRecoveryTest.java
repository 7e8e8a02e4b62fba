package org.lmctfy.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ApiOptions;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Crash safety at the node on this machine's kernel: a NodeManager with recovery on, alone in a
 * child JVM (the ResourceManager and the application master in this one), is SIGKILLed while its
 * containers run. They run on, each in its lmctfy container. A NodeManager started again on the
 * same state destroys at start the container of an application it does not know (planted as a crash
 * of an earlier NodeManager would leave it), reacquires the others through lmctfy and reports their
 * exit code to the application; once the application ends nothing is left: no lmctfy container, no
 * cgroup, no process. On the fake: {@link NodeCleanupTest}.
 */
@Tag("kernel")
@Tag("needs-controllers")
class KernelYarnRecoveryTest {
  private static final String WAIT_THEN_EXIT_3 =
      """
      touch "$OUT/$CONTAINER_ID.up"
      while [ ! -e "$OUT/go" ]; do sleep 0.1; done
      exit 3
      """;

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static Process nodeManager(Path site, Path log) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.log.org.lmctfy.yarn=info",
                "-cp",
                System.getProperty("java.class.path"),
                NodeManagerJvm.class.getName(),
                site.toString()));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }

  private Path log;
  private final List<Process> started = new ArrayList<>();

  private void await(String what, java.util.function.BooleanSupplier done, int seconds)
      throws Exception {
    long end = System.nanoTime() + KernelYarnClusterTest.patience(seconds).toNanos();
    while (!done.getAsBoolean()) {
      boolean died = !started.isEmpty() && !started.get(started.size() - 1).isAlive();
      if (died || System.nanoTime() > end) {
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        throw new AssertionError(
            what
                + (died ? ": the NodeManager died" : "")
                + ": not within "
                + KernelYarnClusterTest.patience(seconds)
                + "; the NodeManagers' log ends:\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size())));
      }
      Thread.sleep(100);
    }
  }

  @Test
  void aNodeManagerSigkilledWhileItsContainersRunIsFollowedByOneThatReacquiresThemAndLeavesNothing()
      throws Exception {
    Path dir = Files.createTempDirectory("lmctfy-yarn-recovery");
    Path out = Files.createDirectories(dir.resolve("out"));
    Path script = MiniYarn.script(dir, "wait.sh", WAIT_THEN_EXIT_3);
    log = dir.resolve("nodemanager.log");
    try (ScratchCgroups scratch = ScratchCgroups.onHost();
        MiniYarn rm =
            MiniYarn.start(
                "lmctfy-yarn-recovery",
                MiniYarn.conf(LmctfyContainerExecutor.class, LmctfyProcessTree.class, Map.of()),
                0);
        ContainerApi api =
            ContainerApi.open(
                ApiOptions.builder()
                    .driver(ApiOptions.Driver.CGROUPFS)
                    .root(scratch.path())
                    .build())) {
      YarnConfiguration conf = rm.clientConf();
      conf.set(Settings.DRIVER, "cgroupfs");
      conf.set(Settings.CGROUP_ROOT, scratch.path().toString());
      conf.setBoolean(YarnConfiguration.NM_RECOVERY_ENABLED, true);
      conf.set(YarnConfiguration.NM_RECOVERY_DIR, dir.resolve("recovery").toString());
      conf.setBoolean(YarnConfiguration.NM_RECOVERY_SUPERVISED, true);
      conf.set(YarnConfiguration.NM_ADDRESS, "localhost:" + freePort());
      conf.set("yarn.nodemanager.localizer.address", "localhost:" + freePort());
      conf.set(YarnConfiguration.NM_LOCAL_DIRS, dir.resolve("local").toString());
      conf.set(YarnConfiguration.NM_LOG_DIRS, dir.resolve("logs").toString());
      conf.setInt(YarnConfiguration.NM_PMEM_MB, 4096);
      conf.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, false);
      Path site = dir.resolve("yarn-site.xml");
      try (OutputStream o = Files.newOutputStream(site)) {
        conf.writeXml(o);
      }
      var nodes = rm.cluster.getResourceManager().getRMContext().getRMNodes();

      Process first = nodeManager(site, log);
      started.add(first);
      await("the first NodeManager registered", () -> nodes.size() == 1, 120);
      ShellApp app = ShellApp.start(rm.clientConf(), "lmctfy-yarn-recovery");
      List<Container> containers = app.allocate(3, 64, 1, KernelYarnClusterTest.patience(60));
      for (Container c : containers) {
        app.start(c, "bash " + script, Map.of("OUT", out.toString()));
      }
      await(
          "the containers run",
          () -> containers.stream().allMatch(c -> Files.exists(out.resolve(c.getId() + ".up"))),
          120);

      first.destroyForcibly().waitFor(); // SIGKILL
      System.out.println("NodeManager SIGKILLed; its containers run on:");
      for (Container c : containers) {
        List<Long> pids = api.get("/hadoop-yarn/" + c.getId()).listProcesses(ListPolicy.RECURSIVE);
        System.out.println("  /hadoop-yarn/" + c.getId() + " processes " + pids);
        assertThat(pids).isNotEmpty();
      }
      ContainerId orphan =
          ContainerId.fromString("container_" + app.id.getClusterTimestamp() + "_9999_01_000001");
      api.create("/hadoop-yarn/" + orphan, ContainerSpec.parse("memory { limit: 32M }"));
      long orphanPid =
          api.get("/hadoop-yarn/" + orphan).run(List.of("sleep", "600"), RunSpec.detached()).pid();
      System.out.println(
          "  planted /hadoop-yarn/" + orphan + " (an unknown application), pid " + orphanPid);

      Process second = nodeManager(site, log);
      started.add(second);
      try {
        await(
            "the second NodeManager reacquired the containers",
            () -> {
              try {
                String text = Files.readString(log);
                return containers.stream().allMatch(c -> text.contains("reacquiring " + c.getId()));
              } catch (java.io.IOException e) {
                return false;
              }
            },
            180);
        assertThat(api.exists("/hadoop-yarn/" + orphan)).isFalse();
        await("the orphan's process ended", () -> !MiniYarn.running(orphanPid), 30);

        Files.createFile(out.resolve("go"));
        Set<ContainerId> ids =
            containers.stream().map(Container::getId).collect(Collectors.toSet());
        Map<ContainerId, ContainerStatus> done =
            app.awaitCompleted(ids, KernelYarnClusterTest.patience(120));
        assertThat(done.values()).allSatisfy(s -> assertThat(s.getExitStatus()).isEqualTo(3));
        System.out.println("after the restart, the application saw:");
        done.forEach(
            (id, s) -> System.out.println("  " + id + " exit status " + s.getExitStatus()));
        app.finish();
        app.close();
        await(
            "no container left",
            () -> api.get("/hadoop-yarn").listSubcontainers(ListPolicy.SELF).isEmpty(),
            60);
      } finally {
        second.destroy(); // SIGTERM: the NodeManager stops, and its executor with it
        second.waitFor();
      }
      assertThat(api.exists("/hadoop-yarn")).isFalse();
      for (Container c : containers) {
        assertThat(MiniYarn.cgroupsNamed(c.getId().toString())).isEmpty();
      }
      System.out.println("the NodeManagers' lmctfy lines:");
      Files.readAllLines(log).stream()
          .filter(l -> l.contains("org.lmctfy.yarn"))
          .forEach(l -> System.out.println("  " + l));
    } finally {
      for (Process p : started) {
        p.destroyForcibly().waitFor();
      }
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }
}
