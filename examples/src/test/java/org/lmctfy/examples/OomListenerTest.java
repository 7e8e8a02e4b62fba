package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** The listener on the fake: an OOM the test raises and a usage rise each print their line. */
class OomListenerTest {
  @Test
  void printsALineForAnOomAndForUsageCrossingTheThreshold() throws Exception {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    try (ContainerApi api = ContainerApi.open(fs)) {
      Container job = api.create("/job", ContainerSpec.parse("memory { limit: 104857600 }"));
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
      OomListener.listen(job, 52428800, out);
      Hierarchy memory = fs.hierarchy("memory").orElseThrow();
      fs.kernel().raiseOom(memory, CgroupPath.of("/job"));
      fs.kernel().setValue(memory, CgroupPath.of("/job"), "memory.usage_in_bytes", "60000000\n");
      awaitLines(printed, 2);
      assertThat(printed.toString(StandardCharsets.UTF_8))
          .contains("/job: out of memory", "/job: memory usage crossed 52428800 bytes");
    }
  }

  /** Waits (up to 10 s) until {@code n} lines were printed by the library's threads. */
  private static void awaitLines(ByteArrayOutputStream printed, int n) throws InterruptedException {
    for (int i = 0; i < 1000 && printed.toString(StandardCharsets.UTF_8).lines().count() < n; i++) {
      Thread.sleep(10);
    }
  }
}
