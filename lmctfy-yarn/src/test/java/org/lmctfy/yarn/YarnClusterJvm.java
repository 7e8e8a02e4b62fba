package org.lmctfy.yarn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;

/**
 * A MiniYARNCluster with {@link LmctfyContainerExecutor} on lmctfy's default driver, alone in its
 * JVM, for {@link KernelYarnSystemdTest} to run in a systemd unit: {@code java YarnClusterJvm
 * <dir>}. Two containers print their cgroups and memory limit (as {@code <id>:<line>}) and exit;
 * then an application whose container sleeps is killed; it prints {@code left=<containers>} once
 * the executor's root holds none, and stops the cluster (the executor's stop removes its root).
 */
public final class YarnClusterJvm {
  private static Path progress;

  private YarnClusterJvm() {}

  /** A line to standard output and to {@code <dir>/progress.log}, to follow a run in a guest. */
  private static void say(String line) throws java.io.IOException {
    System.out.println(line);
    Files.writeString(
        progress,
        line + "\n",
        java.nio.file.StandardOpenOption.CREATE,
        java.nio.file.StandardOpenOption.APPEND);
  }

  public static void main(String[] args) throws Exception {
    progress = Path.of(args[0]).resolve("progress.log");
    int status = 1;
    try {
      run(Path.of(args[0]));
      status = 0;
    } catch (Throwable t) {
      java.io.StringWriter trace = new java.io.StringWriter();
      t.printStackTrace(new java.io.PrintWriter(trace));
      say("failed: " + trace);
    }
    System.exit(status); // Hadoop leaves threads running (its metrics, its timers)
  }

  private static void run(Path dir) throws Exception {
    say("starting");
    Path out = Files.createDirectories(dir.resolve("out"));
    Path probe =
        MiniYarn.script(
            dir,
            "probe.sh",
            """
            p=$(grep '^0::' /proc/self/cgroup | cut -d: -f3)
            { cat /proc/self/cgroup; echo "memory.max=$(cat /sys/fs/cgroup$p/memory.max)"; } > "$OUT/$CONTAINER_ID"
            """);
    Path sleeper = MiniYarn.script(dir, "sleep.sh", "touch \"$OUT/$CONTAINER_ID.up\"\nsleep 600\n");
    try (MiniYarn yarn =
        MiniYarn.start(
            "lmctfy-yarn-systemd",
            MiniYarn.conf(LmctfyContainerExecutor.class, LmctfyProcessTree.class, Map.of()))) {
      say("cluster started");
      Duration wait = Duration.ofMinutes(5);
      try (ShellApp app = ShellApp.start(yarn.clientConf(), "probe")) {
        List<Container> containers = app.allocate(2, 64, 1, wait);
        say("allocated " + containers.size());
        for (Container c : containers) {
          app.start(c, "bash " + probe, Map.of("OUT", out.toString()));
        }
        Set<ContainerId> ids =
            containers.stream().map(Container::getId).collect(Collectors.toSet());
        Map<ContainerId, ContainerStatus> done = app.awaitCompleted(ids, wait);
        for (Container c : containers) {
          say(c.getId() + ":exit=" + done.get(c.getId()).getExitStatus());
          say(c.getId() + ":allocation=" + (c.getResource().getMemorySize() << 20));
          for (String line : Files.readAllLines(out.resolve(c.getId().toString()))) {
            say(c.getId() + ":" + line);
          }
        }
        app.finish();
      }
      try (ShellApp app = ShellApp.start(yarn.clientConf(), "killed")) {
        Container c = app.allocate(1, 64, 1, wait).get(0);
        app.start(c, "bash " + sleeper, Map.of("OUT", out.toString()));
        long end = System.nanoTime() + wait.toNanos();
        while (!Files.exists(out.resolve(c.getId() + ".up")) && System.nanoTime() < end) {
          Thread.sleep(100);
        }
        say("killed=" + c.getId());
        app.kill();
        var api = org.lmctfy.ContainerApi.open();
        List<String> left = List.of("?");
        while (System.nanoTime() < end) {
          left =
              api.exists("/hadoop-yarn")
                  ? api.get("/hadoop-yarn").listSubcontainers(org.lmctfy.ListPolicy.SELF)
                  : List.of();
          if (left.isEmpty()) {
            break;
          }
          Thread.sleep(100);
        }
        api.close();
        say("left=" + left);
      }
    }
    say("stopped");
  }
}
