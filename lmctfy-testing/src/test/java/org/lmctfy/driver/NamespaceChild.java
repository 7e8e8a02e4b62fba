package org.lmctfy.driver;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;

/**
 * A program at the root of a cgroup namespace (as in a Kubernetes pod, or a container with a
 * private cgroup namespace), with plain {@code ContainerApi.open()}: prints {@code key=value} lines
 * of what it did and saw; a failure prints {@code FAILED <code>: <message>} and exits 1.
 */
public final class NamespaceChild {
  private NamespaceChild() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (ContainerApi api = ContainerApi.open()) {
      CgroupFs fs = api.cgroupFs();
      Hierarchy unified = fs.hierarchies().get(0);
      out.println("root=" + api.root());
      out.println("self.before=" + fs.cgroupsOf(fs.selfPid()).get(unified));
      Container job =
          api.create(
              "/job",
              ContainerSpec.parse(
                  "cpu { max_limit: 500 } memory { limit: 64M } pids { limit: 64 }"));
      out.println("self.after=" + fs.cgroupsOf(fs.selfPid()).get(unified));
      CgroupPath path = CgroupPath.of("/job");
      for (String file : List.of("memory.max", "cpu.max", "pids.max")) {
        out.println(file + "=" + fs.read(unified, path, file).strip());
      }
      ContainerProcess p =
          job.run(List.of("/bin/sh", "-c", "cat /proc/self/cgroup"), RunSpec.inherit());
      out.println(
          "run.output=" + new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8).strip());
      out.println("run.status=" + p.waitFor());
      ContainerProcess sleeper = job.run(List.of("/bin/sleep", "1000"), RunSpec.detached());
      out.println(
          "stats.memory=" + job.stats(StatsType.SUMMARY).memory().usage()); // a process is in it
      out.println("sleeper=" + sleeper.pid());
      job.pause();
      out.println("paused.freeze=" + fs.read(unified, path, "cgroup.freeze").strip());
      job.resume();
      job.destroy();
      out.println("children=" + fs.children(unified, CgroupPath.root()));
    } catch (LmctfyException e) {
      out.println("FAILED " + e.code() + ": " + e.getMessage());
      System.exit(1);
    }
  }
}
