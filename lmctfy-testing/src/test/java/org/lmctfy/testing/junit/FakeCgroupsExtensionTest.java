package org.lmctfy.testing.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSnapshot;

/** How a downstream test suite uses {@link FakeCgroups} and {@link CgroupAssertions}. */
@FakeCgroups
class FakeCgroupsExtensionTest {
  FakeCgroupFs cgroups;
  ContainerApi api;

  @BeforeEach
  void fieldsAreInjectedBeforeLifecycleMethods(FakeCgroupFs parameter) {
    assertThat(cgroups).isNotNull().isSameAs(parameter);
    assertThat(api.cgroupFs()).isSameAs(cgroups);
  }

  @Test
  void eachTestGetsAFreshFakeWithOnlyTheStartingTree() {
    CgroupAssertions.assertThat(cgroups).hasNoCgroupsButTheRoots();
    api.create("/job", ContainerSpec.empty());
    CgroupAssertions.assertThat(cgroups)
        .hasContainer("/job")
        .hasCgroup("unified:/system.slice/app.service/job");
  }

  @Test
  void theDefaultIsSystemdOnPureV2WithTheApiReadyForLimitsInTheTestsUnit() throws Exception {
    assertThat(cgroups.hierarchies())
        .singleElement()
        .extracting(h -> h.version())
        .isEqualTo(CgroupVersion.V2);
    assertThat(api.root()).isEqualTo(CgroupPath.of("/system.slice/app.service"));
    assertThat(cgroups.cgroupsOf(cgroups.selfPid()).values())
        .containsExactly(CgroupPath.of("/system.slice/app.service/lmctfy-supervisor"));
    assertThat(cgroups.record().mutations()).as("the record starts with the test").isEmpty();
    api.create("/job", ContainerSpec.parse("memory { limit: 104857600 }"));
    CgroupAssertions.assertThat(cgroups)
        .hasValue("/job", "memory.max", "104857600")
        .hasCgroup("unified:/system.slice/app.service/job");
    assertThat(api.get("/").listSubcontainers(org.lmctfy.ListPolicy.RECURSIVE))
        .as("the leaf is no container")
        .containsExactly("/job");
  }

  @Test
  void aFailedCreateCanBeCheckedToLeaveTheTreeAsItWas() {
    FakeSnapshot before = cgroups.snapshot();
    cgroups.faults().failAt(4, Errno.ENOSPC);
    assertThatLmctfyException(
            () -> api.create("/job", ContainerSpec.parse("memory { limit: 1000000 }")))
        .hasMessageContaining("ENOSPC");
    CgroupAssertions.assertThat(cgroups).matches(before).hasNoContainer("/job");
  }

  @Test
  void assertionsSayWhatDiffers() {
    FakeSnapshot before = cgroups.snapshot();
    api.create("/job", ContainerSpec.empty());
    assertThatThrownBy(() -> CgroupAssertions.assertThat(cgroups).matches(before))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("/job");
    assertThatThrownBy(() -> CgroupAssertions.assertThat(cgroups).hasNoCgroupsButTheRoots())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("unified:/system.slice/app.service/job");
  }

  @Test
  @FakeCgroups(layout = FakeLayout.V2)
  void aMethodCanAskForAnotherLayout() {
    assertThat(cgroups.hierarchies())
        .singleElement()
        .extracting(h -> h.version())
        .isEqualTo(CgroupVersion.V2);
  }
}
