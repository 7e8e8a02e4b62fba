package org.lmctfy.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Inside someone else's container: a JVM at the root of its own cgroup namespace (unshare --cgroup,
 * cgroup2 mounted again in its mount namespace: what a pod or a container with a private cgroup
 * namespace sees) opens the API with no options and no initMachine. Its root is the namespace's,
 * delegated by it (nsdelegate); the first create moves the JVM into the processes leaf
 * lmctfy-supervisor, and the container gets its limits, runs, pauses and goes.
 */
@Tag("kernel")
@Tag("needs-v2")
class KernelCgroupNamespaceTest {
  @Test
  void openWorksAtTheRootOfACgroupNamespaceAsADelegatedSubtree() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    // it unshares and mounts (in namespaces of its own): only where cgroup2 alone is at
    // /sys/fs/cgroup
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.Files.exists(Path.of("/sys/fs/cgroup/cgroup.subtree_control")),
        "needs cgroup2 alone at /sys/fs/cgroup (a v2 guest of .ci/kernel-vm)");
    try (ScratchCgroups scratch = ScratchCgroups.on(fs)) {
      Hierarchy unified = scratch.hierarchies().get(0);
      String dir = unified.display(scratch.path(), null);
      String classPath =
          String.join(
              File.pathSeparator,
              java.util.Arrays.stream(
                      System.getProperty("java.class.path").split(File.pathSeparator))
                  .map(e -> Path.of(e).toAbsolutePath().toString())
                  .toList());
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      // join the scratch cgroup, then a new cgroup and mount namespace whose cgroup2 shows it as /
      String script =
          "echo $$ > "
              + dir
              + "/cgroup.procs && exec unshare --cgroup --mount /bin/sh -c "
              + "'umount /sys/fs/cgroup && mount -t cgroup2 cgroup2 /sys/fs/cgroup && exec \"$0\" \"$@\"' "
              + java
              + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "
              + classPath
              + " "
              + NamespaceChild.class.getName();
      Process p = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
      assertThat(p.exitValue()).as(output).isZero();
      Map<String, String> v = new LinkedHashMap<>();
      output
          .lines()
          .filter(l -> l.indexOf('=') > 0)
          .forEach(
              l -> v.putIfAbsent(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
      assertThat(v)
          .as(output)
          .containsEntry("root", "/")
          .containsEntry("self.before", "/")
          .containsEntry("self.after", "/lmctfy-supervisor")
          .containsEntry("memory.max", "67108864")
          .containsEntry("cpu.max", "50000 100000")
          .containsEntry("pids.max", "64")
          .containsEntry("run.output", "0::/job")
          .containsEntry("run.status", "0")
          .containsEntry("paused.freeze", "1")
          .containsEntry("children", "[lmctfy-supervisor]");
      assertThat(Long.parseLong(v.get("stats.memory"))).isPositive();
      // seen from outside: the namespace's root is the scratch cgroup, its leaf is marked, no
      // container is left
      assertThat(fs.children(unified, scratch.path())).containsExactly("lmctfy-supervisor");
      assertThat(fs.marker(unified, scratch.path(), "leaf.lmctfy-supervisor")).isPresent();
      assertThat(fs.read(unified, scratch.path(), "cgroup.subtree_control"))
          .contains("cpu", "memory", "pids");
      assertThat(List.of(output)).noneMatch(o -> o.contains("FAILED"));
    }
  }
}
