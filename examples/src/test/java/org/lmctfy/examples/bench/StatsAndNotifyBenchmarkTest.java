package org.lmctfy.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The stats and notification benchmarks on this machine's kernel at a toy scale: they report their
 * figures and leave nothing below the scratch parent. No figure is checked.
 */
@Tag("kernel")
@Tag("needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
class StatsAndNotifyBenchmarkTest {

  @Test
  void reportLibraryRawAllocationAndNotificationCostsAndLeaveNoCgroupBehind() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (ScratchCgroups scratch = ScratchCgroups.on(fs)) {
      new StatsBenchmark(out, fs, scratch.path(), 3).run(1);
      new NotifyBenchmark(out, fs, scratch.path()).run(30, 5, 2);
      for (Hierarchy h : fs.hierarchies()) {
        assertThat(fs.children(h, scratch.path())).as(h.label()).isEmpty();
      }
    }
    String report = bytes.toString(StandardCharsets.UTF_8);
    assertThat(report)
        .contains(
            "stats SUMMARY of 3: raw reads",
            "stats FULL of 3: library, one call",
            "KB allocated a container",
            "x raw");
    assertThat(report).containsAnyOf("notifications: event latency", "notifications: skipped");
  }
}
