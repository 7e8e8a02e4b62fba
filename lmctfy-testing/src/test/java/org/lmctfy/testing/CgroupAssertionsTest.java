package org.lmctfy.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lmctfy.ContainerApi;
import org.lmctfy.spec.ContainerSpec;

class CgroupAssertionsTest {
  private static final ContainerSpec PIDS = ContainerSpec.parse("pids { limit: 64 }");

  @ParameterizedTest
  @EnumSource(FakeLayout.class)
  void containerAssertionsHoldOnEveryLayout(FakeLayout layout) {
    FakeCgroupFs fs = FakeCgroupFs.create(layout);
    ContainerApi api = ContainerApi.open(fs);
    api.create("/job", PIDS);
    CgroupAssertions.assertThat(fs).hasContainer("/job").hasValue("/job", "pids.max", "64");
    assertThatThrownBy(() -> CgroupAssertions.assertThat(fs).hasNoContainer("/job"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("/job");
    api.destroy("/job");
    CgroupAssertions.assertThat(fs).hasNoContainer("/job").hasNoCgroupsButTheRoots();
    assertThatThrownBy(() -> CgroupAssertions.assertThat(fs).hasContainer("/job"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no cgroup in");
  }

  @ParameterizedTest
  @EnumSource(FakeLayout.class)
  void aValueIsComparedWithoutTheKernelsNewline(FakeLayout layout) {
    FakeCgroupFs fs = FakeCgroupFs.create(layout);
    ContainerApi.open(fs).create("/job", PIDS);
    assertThatThrownBy(() -> CgroupAssertions.assertThat(fs).hasValue("/job", "pids.max", "65"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("reads \"64\"");
    assertThatThrownBy(() -> CgroupAssertions.assertThat(fs).hasValue("/job", "no.such.file", "1"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no hierarchy");
  }

  @ParameterizedTest
  @EnumSource(value = FakeLayout.class, names = "V2")
  void aCgroupLabelTheLayoutLacksIsRefusedNotPassed(FakeLayout layout) {
    FakeCgroupFs fs = FakeCgroupFs.create(layout);
    ContainerApi.open(fs).create("/job", PIDS);
    // v2 has no "memory" hierarchy: "memory:/job" can never exist, so hasNoCgroup would prove
    // nothing
    assertThatThrownBy(() -> CgroupAssertions.assertThat(fs).hasNoCgroup("memory:/job"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unified");
    CgroupAssertions.assertThat(fs).hasCgroup("unified:/job");
  }
}
