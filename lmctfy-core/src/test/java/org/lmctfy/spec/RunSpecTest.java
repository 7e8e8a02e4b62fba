package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.spec.InvalidArgument.messageOf;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lmctfy.spec.RunSpec.FdPolicy;

class RunSpecTest {

  @Test
  void inheritAndDetachedDifferOnlyInFdPolicy() {
    assertThat(RunSpec.inherit().fdPolicy()).isEqualTo(FdPolicy.INHERIT);
    assertThat(RunSpec.detached().fdPolicy()).isEqualTo(FdPolicy.DETACHED);
    assertThat(RunSpec.detached().environment()).isNull();
  }

  @Test
  void absentFdPolicyMeansInherit() {
    assertThat(RunSpec.parse("")).isEqualTo(RunSpec.inherit());
  }

  @Test
  void parsesTextWithEnvironmentAndRedirections() {
    RunSpec spec =
        RunSpec.parse(
            "fd_policy: DETACHED environment { PATH: '/bin' HOME: '/root' }"
                + " working_directory: '/tmp' stdout: '/var/log/out' use_shell: true");

    assertThat(spec)
        .isEqualTo(
            new RunSpec(
                FdPolicy.DETACHED,
                Map.of("PATH", "/bin", "HOME", "/root"),
                "/tmp",
                null,
                "/var/log/out",
                null,
                true));
  }

  @Test
  void parsesJson() {
    assertThat(RunSpec.parse("{\"fd_policy\": \"INHERIT\", \"environment\": {}}").environment())
        .isEmpty();
  }

  @Test
  void roundTripsThroughTextAndJson() {
    RunSpec spec =
        new RunSpec(
            FdPolicy.DETACHED,
            Map.of("A", "1", "weird.name", "x\ny"),
            "/",
            "/dev/null",
            "/o",
            "/e",
            false);

    assertThat(RunSpec.parse(spec.toText())).isEqualTo(spec);
    assertThat(RunSpec.parse(spec.toJson())).isEqualTo(spec);
  }

  @Test
  void environmentNameWithEqualsSignIsRejected() {
    messageOf(() -> new RunSpec(null, Map.of("A=B", "1"), null, null, null, null, null))
        .isEqualTo(
            "environment: invalid value \"A=B\": names must be non-empty, without '=' or NUL");
  }

  @Test
  void emptyPathIsRejected() {
    messageOf(() -> RunSpec.parse("stdout: ''")).startsWith("stdout: invalid value \"\"");
  }

  @Test
  void unknownFieldIsNamed() {
    messageOf(() -> RunSpec.parse("fd_polcy: DETACHED")).startsWith("fd_polcy: unknown field");
  }
}
