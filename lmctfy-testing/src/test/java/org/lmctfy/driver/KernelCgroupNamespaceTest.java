package org.lmctfy.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Inside someone else's container: a JVM at the root of its own cgroup namespace (unshare --cgroup,
 * cgroup2 mounted again in its mount namespace: what a pod or a container with a private cgroup
 * namespace sees) opens the API with no options and no initMachine. Its root is the namespace's,
 * delegated by it (nsdelegate); the first create moves the JVM into the processes leaf
 * lmctfy-supervisor, and the container gets its limits, runs, pauses and goes. Below a pod's caps,
 * the create they refuse is RESOURCE_EXHAUSTED.
 */
@Tag("kernel")
@Tag("needs-v2")
class KernelCgroupNamespaceTest {
  @Test
  void openWorksAtTheRootOfACgroupNamespaceAsADelegatedSubtree() throws Exception {
    CgroupFs fs = requireCgroup2Alone();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs)) {
      Hierarchy unified = scratch.hierarchies().get(0);
      String output = inNamespace(unified.display(scratch.path(), null), NamespaceChild.class);
      Map<String, String> v = values(output);
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

  /**
   * A pod with writable cgroups, laid out as the kubelet and containerd make it: the scratch cgroup
   * is the pod's, with the kubelet's caps ({@code cgroup.max.descendants} 250, {@code
   * cgroup.max.depth} 50) and every controller enabled, holding the sandbox's cgroup and the
   * container's, which is the root of the child's cgroup namespace. The child cannot see the caps:
   * its 248th create (the pod's 251st descendant: the sandbox, the container and the processes leaf
   * count too) and its container 50 levels below its root are RESOURCE_EXHAUSTED and change
   * nothing; a destroy makes room. The same sequence as FakeKubernetesPodTest on the fake.
   */
  @Test
  void thePodsCapsRefuseACreateAsResourceExhaustedInsideTheNamespace() throws Exception {
    CgroupFs fs = requireCgroup2Alone();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs)) {
      Hierarchy unified = scratch.hierarchies().get(0);
      CgroupPath pod = scratch.path();
      for (String c : fs.read(unified, pod, "cgroup.controllers").strip().split("\\s+")) {
        if (!c.isEmpty()) {
          fs.write(unified, pod, "cgroup.subtree_control", "+" + c);
        }
      }
      fs.write(unified, pod, "cgroup.max.descendants", "250");
      fs.write(unified, pod, "cgroup.max.depth", "50");
      fs.makeCgroup(unified, pod.resolve("sandbox"));
      fs.makeCgroup(unified, pod.resolve("container"));
      String output =
          inNamespace(unified.display(pod.resolve("container"), null), PodCapsChild.class);
      System.out.println(output); // the refusals' messages, for the report
      Map<String, String> v = values(output);
      assertThat(v)
          .as(output)
          .containsEntry("descendants.made", "247")
          .containsEntry("descendants.code", "RESOURCE_EXHAUSTED")
          .containsEntry("descendants.unchanged", "true")
          .containsEntry("descendants.afterDestroy", "true")
          .containsEntry("depth.made", "49")
          .containsEntry("depth.code", "RESOURCE_EXHAUSTED")
          .containsEntry("depth.unchanged", "true")
          .containsEntry("children", "[lmctfy-supervisor]");
      assertThat(v.get("descendants.refusal"))
          .startsWith("create /c248: mkdir /sys/fs/cgroup/c248: EAGAIN")
          .contains(
              "/sys/fs/cgroup has 248 descendants",
              "the cap is on an ancestor of /sys/fs/cgroup, the root of this cgroup namespace",
              "cgroup.max.descendants 250 and cgroup.max.depth 50");
      assertThat(v.get("depth.refusal"))
          .contains("EAGAIN", "the new cgroup would be at depth 50 below it");
      // seen from outside: the pod holds the sandbox and the container, the container its leaf
      assertThat(fs.children(unified, pod)).containsExactlyInAnyOrder("sandbox", "container");
      assertThat(fs.children(unified, pod.resolve("container")))
          .containsExactly("lmctfy-supervisor");
    }
  }

  /** The host's cgroups; the test unshares and mounts (in namespaces of its own) only there. */
  private static CgroupFs requireCgroup2Alone() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    Assumptions.assumeTrue(
        Files.exists(Path.of("/sys/fs/cgroup/cgroup.subtree_control")),
        "needs cgroup2 alone at /sys/fs/cgroup (a v2 guest of .ci/kernel-vm)");
    return fs;
  }

  /**
   * Runs {@code main} in a JVM that joins the cgroup {@code dir}, then a new cgroup and mount
   * namespace whose cgroup2 shows that cgroup as {@code /}; returns its output once it exited 0.
   */
  private static String inNamespace(String dir, Class<?> main) throws Exception {
    String classPath =
        String.join(
            File.pathSeparator,
            Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(e -> Path.of(e).toAbsolutePath().toString())
                .toList());
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String script =
        "echo $$ > "
            + dir
            + "/cgroup.procs && exec unshare --cgroup --mount /bin/sh -c "
            + "'umount /sys/fs/cgroup && mount -t cgroup2 cgroup2 /sys/fs/cgroup && exec \"$0\" \"$@\"' "
            + java
            + " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "
            + classPath
            + " "
            + main.getName();
    Process p = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    return output;
  }

  /** The {@code key=value} lines of a child's output, the first of each key. */
  private static Map<String, String> values(String output) {
    Map<String, String> v = new LinkedHashMap<>();
    output
        .lines()
        .filter(l -> l.indexOf('=') > 0)
        .forEach(
            l -> v.putIfAbsent(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
    return v;
  }
}
