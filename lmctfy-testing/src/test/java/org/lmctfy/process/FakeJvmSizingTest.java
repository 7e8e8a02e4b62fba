package org.lmctfy.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/**
 * RunSpec's size_jvm on the fake, v1 and v2: the argv a java launcher starts with carries the
 * limits of its container's ancestors; nothing else changes. {@code KernelJvmSizingTest} shows what
 * real JDKs make of it.
 */
class FakeJvmSizingTest {
  private static final RunSpec SIZED = RunSpec.builder().sizeJvm(true).build();

  private static ContainerApi api(FakeCgroupFs fs) {
    return ContainerApi.open(fs);
  }

  /** {@code /p} with half a CPU and 256 MiB, {@code /p/c} with no limit of its own. */
  private static Container nested(ContainerApi api) {
    api.create("/p", ContainerSpec.parse("cpu { max_limit: 500 } memory { limit: 268435456 }"));
    return api.create("/p/c", ContainerSpec.empty());
  }

  private static List<String> argvOf(FakeCgroupFs fs, ContainerProcess p) {
    return fs.processes().commandOf(p.pid()).orElseThrow();
  }

  @ParameterizedTest
  @EnumSource(names = {"HYBRID", "V2"})
  void aJavaInANestedContainerGetsItsAncestorsCpuAndMemoryAsFlags(FakeLayout layout) {
    FakeCgroupFs fs = FakeCgroupFs.create(layout);
    try (ContainerApi api = api(fs)) {
      Container child = nested(api);
      ContainerProcess p = child.run(List.of("/usr/bin/java", "-version"), SIZED);
      assertThat(argvOf(fs, p))
          .containsExactly(
              "/usr/bin/java", "-XX:ActiveProcessorCount=1", "-XX:MaxRAM=268435456", "-version");
      ContainerProcess plain = child.run(List.of("/usr/bin/java", "-version"), RunSpec.inherit());
      assertThat(argvOf(fs, plain))
          .as("off by default")
          .containsExactly("/usr/bin/java", "-version");
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"HYBRID", "V2"})
  void theLowestQuotaOnThePathCountsRoundedUpAndAFlagTheCallerSetIsKept(FakeLayout layout) {
    FakeCgroupFs fs = FakeCgroupFs.create(layout);
    try (ContainerApi api = api(fs)) {
      api.create("/p", ContainerSpec.parse("cpu { max_limit: 2500 }"));
      Container child = api.create("/p/c", ContainerSpec.parse("cpu { max_limit: 1500 }"));
      ContainerProcess p = child.run(List.of("java", "-XX:MaxRAM=1g", "-jar", "app.jar"), SIZED);
      assertThat(argvOf(fs, p))
          .as("1.5 CPUs count as 2; no memory limit, and the caller's MaxRAM stays")
          .containsExactly(
              "java", "-XX:ActiveProcessorCount=2", "-XX:MaxRAM=1g", "-jar", "app.jar");
      ContainerProcess own =
          child.run(List.of("java", "-XX:ActiveProcessorCount=4", "-version"), SIZED);
      assertThat(argvOf(fs, own)).containsExactly("java", "-XX:ActiveProcessorCount=4", "-version");
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"HYBRID", "V2"})
  void withoutLimitsTheArgvIsUnchanged(FakeLayout layout) {
    FakeCgroupFs fs = FakeCgroupFs.create(layout);
    try (ContainerApi api = api(fs)) {
      Container c = api.create("/free", ContainerSpec.empty());
      ContainerProcess p = c.run(List.of("java", "-version"), SIZED);
      assertThat(argvOf(fs, p)).containsExactly("java", "-version");
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"HYBRID", "V2"})
  void sizeJvmForAProgramThatIsNoJavaLauncherIsRefusedAndNothingStarts(FakeLayout layout) {
    FakeCgroupFs fs = FakeCgroupFs.create(layout);
    try (ContainerApi api = api(fs)) {
      Container child = nested(api);
      assertThatLmctfyException(() -> child.run(List.of("/usr/bin/javac", "A.java"), SIZED))
          .hasCode(ErrorCode.INVALID_ARGUMENT)
          .hasMessageContaining("size_jvm")
          .hasMessageContaining("/usr/bin/javac");
      assertThat(child.listProcesses(ListPolicy.RECURSIVE)).isEmpty();
    }
  }

  @Test
  void theFieldRoundTripsThroughTheTextFormat() {
    assertThat(RunSpec.parse("size_jvm: true")).isEqualTo(SIZED);
    assertThat(RunSpec.parse(SIZED.toText())).isEqualTo(SIZED);
    assertThat(RunSpec.inherit().sizeJvm()).isNull();
  }
}
