package org.lmctfy.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The scale benchmark on this machine's kernel at a toy scale: it reports every operation for
 * library and floor, and both leave nothing below the scratch parent. No figure is checked.
 */
@Tag("kernel")
@Tag("needs-v1") // its raw floor writes the five v1 hierarchies' files
class ScaleBenchmarkTest {

  @Test
  void reportsEveryOperationAndLeavesNoCgroupBehind() throws Exception {
    CgroupFs fs = new OnlyHierarchies(ScratchCgroups.requireHost(), Benchmarks.FIVE);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      new ScaleBenchmark(
              new PrintStream(bytes, true, StandardCharsets.UTF_8), fs, scratch.path(), api)
          .run(new int[][] {{2, 2}, {2, 3}}, 1);
      for (Hierarchy h : fs.hierarchies()) {
        assertThat(fs.children(h, scratch.path())).as(h.label()).isEmpty();
      }
    }
    String out = bytes.toString(StandardCharsets.UTF_8);
    for (String op : List.of("create", "get", "list", "stats", "destroy")) {
      assertThat(out).contains("scale: " + op + " per container (floor)");
    }
    assertThat(out).contains("4: ", "6: ", "growth");
  }
}
