package org.lmctfy.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The transcript of docs/cli.md (lmctfy issue #37) through the CLI's main entry, on the kernel and
 * on the fake.
 */
class TranscriptTest {

  @Test
  @Tag("kernel")
  @Tag(
      "needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
  void onTheKernelUnderAScratchRootTheTranscriptEndsWithNothingLeftInAnyHierarchy()
      throws Exception {
    List<Long> started = Transcript.pids();
    try (ScratchCgroups scratch = ScratchCgroups.onHost()) {
      try {
        Transcript.run(Cli.real("--root", scratch.path().toString()), started);
        for (Hierarchy h : scratch.hierarchies()) {
          assertThat(scratch.fs().children(h, scratch.path())).as(h.label()).isEmpty();
        }
      } finally {
        killOurs(started); // on a failure half-way: the sleep must not outlive the test
      }
    }
  }

  @Test
  void onTheFakeTheTranscriptEndsWithNothingLeft() {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    List<Long> started = Transcript.pids();
    Transcript.run(Cli.on(new Backend(fs, null, true)), started);
    CgroupAssertions.assertThat(fs).hasNoCgroupsButTheRoots();
    assertThat(fs.processes().living()).doesNotContainAnyElementsOf(started);
    assertThat(fs.processes().commandOf(started.get(0)).orElseThrow()).endsWith("sleep", "100");
  }

  /** Kills the processes this test started that still run as this JVM's children. */
  private static void killOurs(List<Long> pids) {
    long self = ProcessHandle.current().pid();
    for (long pid : pids) {
      ProcessHandle.of(pid)
          .filter(p -> p.parent().map(ProcessHandle::pid).orElse(-1L) == self)
          .ifPresent(ProcessHandle::destroyForcibly);
    }
  }
}
