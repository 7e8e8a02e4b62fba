package org.lmctfy.kernel.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.internal.kernel.launch.Launcher;
import org.lmctfy.testing.FakeCgroupFs;

/** What the host launcher refuses before it starts anything (no kernel needed: nothing starts). */
class LauncherRefusalsTest {
  final FakeCgroupFs fs = FakeCgroupFs.create();

  private LmctfyException refusal(ProcessBuilder pb) {
    return assertThatLmctfyException(() -> Launcher.start(fs, pb, Map.of()))
        .as("expected a refusal")
        .hasCode(ErrorCode.INVALID_ARGUMENT)
        .actual();
  }

  @Test
  void aProgramWhoseNameHasAnEqualsSignIsRefusedWhateverTheEnvironment() {
    for (Map<String, String> env :
        java.util.List.of(Map.<String, String>of(), Map.of("a-b", "needs env"))) {
      ProcessBuilder pb = new ProcessBuilder("./a=b");
      pb.environment().clear();
      pb.environment().putAll(env);
      assertThat(refusal(pb).getMessage()).contains("'='");
    }
  }

  @Test
  void stdinInheritedFromTheJvmIsRefused() {
    ProcessBuilder pb =
        new ProcessBuilder("/bin/true").redirectInput(ProcessBuilder.Redirect.INHERIT);
    assertThat(refusal(pb).getMessage()).contains("stdin");
  }

  @Test
  void aMissingProgramIsRefused() {
    assertThat(refusal(new ProcessBuilder("/no/such/program")).getMessage())
        .contains("/no/such/program");
  }
}
