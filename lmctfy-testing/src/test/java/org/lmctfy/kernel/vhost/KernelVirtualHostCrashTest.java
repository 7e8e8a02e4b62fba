package org.lmctfy.kernel.vhost;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ListPolicy;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.lifecycle.ChildJvm;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.support.TestScale;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Virtual hosts across JVMs on this machine's kernel: one made by a JVM that then exits lives on
 * and is joined by the next; JVMs making and destroying virtual hosts killed with SIGKILL at random
 * instants, then one {@code cleanup()}, leave no init, no bwrap, no cgroup, no mount.
 */
@Tag("kernel")
class KernelVirtualHostCrashTest {
  /** 60 on a real machine; fewer where {@code LMCTFY_TEST_SCALE} says JVMs start slowly. */
  static final int KILLS = TestScale.scaled(60);

  @Test
  void aVirtualHostOutlivesTheJvmThatMadeItAndTheNextJvmJoinsIt() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    BusyboxRoot.assumeBusybox();
    Path rootfs = BusyboxRoot.make(Path.of("/tmp"));
    Path output = Files.createTempFile("lmctfy-vh", ".out");
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      Process maker =
          VirtualHostJvm.start(output, "create", scratch.path().value(), rootfs.toString());
      assertThat(maker.waitFor(120, TimeUnit.SECONDS)).isTrue();
      List<String> lines = Files.readAllLines(output);
      assertThat(maker.exitValue()).as("%s", lines).isZero();
      long init = Long.parseLong(lines.get(lines.size() - 1).substring("init ".length()));

      Container vh = api.get("/vh");
      assertThat(vh.initPid()).isEqualTo(init);
      ContainerProcess p = vh.run(List.of("/bin/hostname"), RunSpec.inherit());
      assertThat(new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("vh\n");
      assertThat(p.waitFor()).isZero();
      vh.destroy();
      HostView.eventually("the init gone", Duration.ofSeconds(30), () -> HostView.gone(init));
    } finally {
      Files.delete(output);
      BusyboxRoot.delete(rootfs);
    }
  }

  @Test
  void sigkillsOfJvmsAtRandomPointsThenCleanupLeaveNoProcessCgroupOrMount() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    BusyboxRoot.assumeBusybox();
    Path rootfs = BusyboxRoot.make(Path.of("/tmp"));
    List<String> mounts = HostView.mounts();
    Path output = Files.createTempFile("lmctfy-vh", ".out");
    try (ScratchCgroups scratch = ScratchCgroups.on(fs)) {
      String root = scratch.path().value();
      for (int i = 0; i < KILLS; i++) {
        Process child = VirtualHostJvm.start(output, "loop", root, rootfs.toString());
        List<String> seen = ChildJvm.awaitLine(child, output, "ready");
        assertThat(seen).as("child %d started", i).contains("ready");
        Thread.sleep(ThreadLocalRandom.current().nextInt(1, 300));
        child.destroyForcibly();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(output)).as("child %d", i).doesNotContain("UNEXPECTED");
      }
      try (ContainerApi api = ContainerApi.open(fs, scratch.path())) {
        CleanupReport report = api.cleanup();
        assertThat(report.failures()).isEmpty();
        for (String name : api.get("/").listSubcontainers(ListPolicy.SELF)) {
          api.destroy(name); // a virtual host a JVM had finished making: complete, destroyed whole
        }
      }
      for (Hierarchy h : fs.hierarchies()) {
        assertThat(fs.children(h, scratch.path())).as(h.label()).isEmpty();
      }
      HostView.awaitNone(
          "processes in the scratch cgroups",
          Duration.ofSeconds(30),
          () -> HostView.processesInCgroupsBelow(root));
      HostView.awaitNone(
          "processes of the virtual hosts (naming their root)",
          Duration.ofSeconds(30),
          () -> HostView.processesMentioning(rootfs.toString()));
      assertThat(HostView.mounts()).isEqualTo(mounts);
    } finally {
      Files.delete(output);
      BusyboxRoot.delete(rootfs);
    }
  }
}
