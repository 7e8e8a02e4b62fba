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
  void anEmptyBuilderIsInheritAndToBuilderGivesAnEqualSpec() {
    assertThat(RunSpec.builder().build()).isEqualTo(RunSpec.inherit());
    RunSpec every =
        RunSpec.parse(
            "fd_policy: DETACHED environment { A: '1' } working_directory: '/w'"
                + " stdin: 'i' stdout: 'o' stderr: 'e' use_shell: true");
    assertThat(every.toBuilder().build()).isEqualTo(every);
    assertThat(every.toBuilder().stdout(null).build().stdout()).isNull();
  }

  @Test
  void theBuilderValidatesAsTheRecordDoes() {
    messageOf(() -> RunSpec.builder().workingDirectory("").build())
        .startsWith("working_directory: invalid value \"\"");
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
            RunSpec.builder()
                .fdPolicy(FdPolicy.DETACHED)
                .environment(Map.of("PATH", "/bin", "HOME", "/root"))
                .workingDirectory("/tmp")
                .stdout("/var/log/out")
                .useShell(true)
                .build());
  }

  @Test
  void parsesJson() {
    assertThat(RunSpec.parse("{\"fd_policy\": \"INHERIT\", \"environment\": {}}").environment())
        .isEmpty();
  }

  @Test
  void roundTripsThroughTextAndJson() {
    RunSpec spec =
        RunSpec.builder()
            .fdPolicy(FdPolicy.DETACHED)
            .environment(Map.of("A", "1", "weird.name", "x\ny"))
            .workingDirectory("/")
            .stdin("/dev/null")
            .stdout("/o")
            .stderr("/e")
            .useShell(false)
            .build();

    assertThat(RunSpec.parse(spec.toText())).isEqualTo(spec);
    assertThat(RunSpec.parse(spec.toJson())).isEqualTo(spec);
  }

  @Test
  void environmentNameWithEqualsSignIsRejected() {
    messageOf(() -> RunSpec.builder().environment(Map.of("A=B", "1")).build())
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
