package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

class RunWithLimitsTest {
  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);

  private Hierarchy hierarchy(String controller) {
    return fs.hierarchies().stream().filter(h -> h.has(controller)).findFirst().orElseThrow();
  }

  @Test
  void runsTheCommandInsideTheLimitsReturnsItsCodeAndDestroysTheContainer() throws Exception {
    Set<Long> before = fs.processes().living();
    AtomicReference<String> seen = new AtomicReference<>();
    Thread kernel =
        new Thread(
            () -> { // plays the program: looks at its container, then exits with 3
              try {
                long pid;
                while (true) {
                  Set<Long> now = new HashSet<>(fs.processes().living());
                  now.removeAll(before);
                  if (!now.isEmpty()) {
                    pid = now.iterator().next();
                    break;
                  }
                  Thread.sleep(5);
                }
                CgroupPath job = fs.cgroupsOf(pid).get(hierarchy("memory"));
                seen.set(
                    job
                        + " memory="
                        + fs.read(hierarchy("memory"), job, "memory.limit_in_bytes").strip()
                        + " quota="
                        + fs.read(hierarchy("cpu"), job, "cpu.cfs_quota_us").strip()
                        + " pids="
                        + fs.read(hierarchy("pids"), job, "pids.max").strip()
                        + " argv="
                        + fs.processes()
                            .commandOf(pid)
                            .orElseThrow()
                            .subList(
                                fs.processes().commandOf(pid).orElseThrow().size() - 2,
                                fs.processes().commandOf(pid).orElseThrow().size()));
                fs.processes().exit(pid, 3);
              } catch (Exception e) {
                seen.set(e.toString());
              }
            });
    kernel.start();
    int code =
        RunWithLimits.run(
            ContainerApi.open(fs), "/job", List.of("echo", "hi"), new ByteArrayOutputStream());
    kernel.join();
    assertThat(code).isEqualTo(3);
    assertThat(seen.get()).isEqualTo("/job memory=268435456 quota=100000 pids=64 argv=[echo, hi]");
    CgroupAssertions.assertThat(fs).hasNoCgroupsButTheRoots();
  }
}
