package org.lmctfy.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.internal.host.MachineLacks;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The lifecycle shapes on this machine's kernel at a toy scale, with the C floor and strace's
 * counts: a row per shape and side (the floor with the guarantee calls too), and nothing left below
 * the scratch parent. No figure is checked.
 */
@Tag("kernel")
@Tag("needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
class LifecycleBenchmarkTest {

  @Test
  void reportsEveryShapeAgainstTheCFloorAndLeavesNoCgroupBehind() throws Exception {
    CgroupFs fs = new OnlyHierarchies(ScratchCgroups.requireHost(), Benchmarks.FIVE);
    Path floor;
    Path guarded;
    try {
      floor = CFloor.compile("lifecycle-floor", LifecycleBenchmark.FLOOR_C);
      guarded = CFloor.compile("lifecycle-floor-guarded", LifecycleBenchmark.GUARDED_FLOOR_C);
    } catch (CFloor.Unavailable e) {
      MachineLacks.assumeHas(false, e.getMessage());
      throw e;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<LifecycleBenchmark.Row> rows;
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      rows =
          new LifecycleBenchmark(
                  new PrintStream(bytes, true, StandardCharsets.UTF_8),
                  fs,
                  scratch.path(),
                  api,
                  floor,
                  guarded)
              .run(4, 1, Strace.available());
      for (Hierarchy h : fs.hierarchies()) {
        assertThat(fs.children(h, scratch.path())).as(h.label()).isEmpty();
      }
    }
    assertThat(rows).hasSize(LifecycleBenchmark.SHAPES.size());
    String out = bytes.toString(StandardCharsets.UTF_8);
    for (LifecycleBenchmark.Shape s : LifecycleBenchmark.SHAPES) {
      assertThat(out)
          .contains(
              "lifecycle " + s.title() + ": C floor",
              "lifecycle " + s.title() + ": library",
              "lifecycle " + s.title() + ": C floor + guarantees");
    }
    if (Strace.available()) {
      assertThat(rows)
          .allSatisfy(
              r -> assertThat(r.floorSyscalls().calls()).containsKeys("mkdirat", "unlinkat"));
      // the guarded floor makes each guarantee call of the library's
      assertThat(rows)
          .allSatisfy(
              r ->
                  assertThat(r.guardedSyscalls().calls())
                      .containsKeys(
                          "mkdirat",
                          "unlinkat",
                          "fcntl",
                          "access",
                          "setxattr",
                          "removexattr",
                          "getxattr",
                          "statx"));
    }
  }
}
