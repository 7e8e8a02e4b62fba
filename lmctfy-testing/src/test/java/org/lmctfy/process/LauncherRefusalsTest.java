package org.lmctfy.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.internal.process.Launcher;
import org.lmctfy.testing.FakeCgroupFs;

/** What the host launcher refuses before it starts anything (no kernel needed: nothing starts). */
class LauncherRefusalsTest {
  final FakeCgroupFs fs = FakeCgroupFs.create();

  private LmctfyException refusal(ProcessBuilder pb) {
    LmctfyException e = catchThrowableOfType(LmctfyException.class, () -> Launcher.start(fs, pb, Map.of()));
    assertThat(e).as("expected a refusal").isNotNull();
    assertThat(e.code()).as(e.getMessage()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    return e;
  }

  @Test
  void aProgramWhoseNameHasAnEqualsSignIsRefusedWhateverTheEnvironment() {
    for (Map<String, String> env : java.util.List.of(Map.<String, String>of(), Map.of("a-b", "needs env"))) {
      ProcessBuilder pb = new ProcessBuilder("./a=b");
      pb.environment().clear();
      pb.environment().putAll(env);
      assertThat(refusal(pb).getMessage()).contains("'='");
    }
  }

  @Test
  void stdinInheritedFromTheJvmIsRefused() {
    ProcessBuilder pb = new ProcessBuilder("/bin/true").redirectInput(ProcessBuilder.Redirect.INHERIT);
    assertThat(refusal(pb).getMessage()).contains("stdin");
  }

  @Test
  void aMissingProgramIsRefused() {
    assertThat(refusal(new ProcessBuilder("/no/such/program")).getMessage()).contains("/no/such/program");
  }
}
