package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The lifecycle contract on this machine's kernel (skipped, with the reason, where this machine
 * does not serve it).
 */
@Tag("kernel")
@Tag("needs-controllers") // its containers have cpu and memory limits
class KernelLifecycleTest extends LifecycleContract {
  KernelLifecycleTest() {
    super(ContractBackend.host());
  }

  /**
   * Starts {@code sh -c script} and moves it into {@code name} in every hierarchy but a v1 cpuset;
   * a script that forks starts with {@code read go} (a builtin), released once it has been moved.
   */
  private Process startInside(String name, String script) throws IOException {
    Process p = new ProcessBuilder("sh", "-c", script).start();
    CgroupPath path = path(name);
    for (Hierarchy h : managed()) {
      if (!(h.has("cpuset") && h.version() == CgroupVersion.V1)) {
        fs.write(h, path, "cgroup.procs", Long.toString(p.pid()));
      }
    }
    p.getOutputStream().write("go\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    p.getOutputStream().flush();
    return p;
  }

  @Test
  void destroyKillsAForkLoopInsideAndLeavesNothing() throws Exception {
    api.create("/job", CPU_AND_MEMORY);
    Process loop = startInside("/job", "read go; while :; do sleep 100 & sleep 0.01; done");
    Thread.sleep(100);
    assertThat(fs.read(managed().get(0), path("/job"), "cgroup.procs").lines().count())
        .isGreaterThan(1);
    api.destroy("/job");
    assertThat(loop.waitFor(5, TimeUnit.SECONDS)).isTrue();
    assertThat(tree()).isEmpty();
  }

  @Test
  void destroyKillsFrozenProcesses() throws Exception {
    api.create("/job", CPU_AND_MEMORY);
    Process sleeper = startInside("/job", "exec sleep 1000");
    Hierarchy freezer = fs.hierarchy("freezer").orElse(null);
    if (freezer != null && freezer.version() == CgroupVersion.V1) {
      fs.write(freezer, path("/job"), "freezer.state", "FROZEN");
    } else {
      fs.write(managed().get(0), path("/job"), "cgroup.freeze", "1");
    }
    api.destroy("/job");
    assertThat(sleeper.waitFor(5, TimeUnit.SECONDS)).isTrue();
    assertThat(tree()).isEmpty();
  }
}
