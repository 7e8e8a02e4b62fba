package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.CleanupReport;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.support.TestScale;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * A JVM creating and destroying nested containers is killed with SIGKILL at random instants, 200
 * times over the same names; the next JVM always gets on with its work, and one cleanup() then
 * leaves nothing that is not a complete container.
 */
@Tag("kernel")
class KernelCrashTest {
  /** 200 on a real machine; fewer where {@code LMCTFY_TEST_SCALE} says JVMs start slowly. */
  static final int KILLS = TestScale.scaled(200);

  @Test
  void twoHundredSigkillsAtRandomPointsLeaveNothingThatNeedsAPerson() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs)) {
      String root = scratch.path().value();
      Path output = Files.createTempFile("lmctfy-child", ".out");
      try {
        for (int i = 0; i < KILLS; i++) {
          Process child = ChildJvm.start(output, "loop", root, "/a", "/a/b", "/c");
          List<String> seen = ChildJvm.awaitLine(child, output, "ready");
          assertThat(seen).as("child %d started", i).contains("ready");
          Thread.sleep(ThreadLocalRandom.current().nextInt(1, 40));
          child.destroyForcibly();
          assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
          assertThat(Files.readString(output)).as("child %d", i).doesNotContain("UNEXPECTED");
        }
      } finally {
        Files.delete(output);
      }
      ContainerApi api = ContainerApi.open(fs, scratch.path());
      CleanupReport report = api.cleanup();
      assertThat(report.failures()).isEmpty();
      for (String name : api.get("/").listSubcontainers(ListPolicy.SELF)) {
        api.destroy(name);
      }
      for (var h : fs.hierarchies()) {
        assertThat(fs.children(h, scratch.path())).as(h.label()).isEmpty();
      }
    }
  }
}
