package org.lmctfy.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.spec.ContainerSpec;

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
  void eachTestGetsAFreshFakeWithOnlyRootCgroups() {
    CgroupAssertions.assertThat(cgroups).hasNoCgroupsButTheRoots();
    api.create("/job", ContainerSpec.empty());
    CgroupAssertions.assertThat(cgroups).hasCgroup("memory:/job").hasCgroup("freezer:/job");
  }

  @Test
  void aFailedCreateCanBeCheckedToLeaveTheTreeAsItWas() {
    FakeSnapshot before = cgroups.snapshot();
    cgroups.failMutation(4, Errno.ENOSPC);
    assertThatThrownBy(() -> api.create("/job", ContainerSpec.parse("memory { limit: 1000000 }")))
        .isInstanceOf(LmctfyException.class).hasMessageContaining("ENOSPC");
    CgroupAssertions.assertThat(cgroups).matches(before).hasNoCgroup("memory:/job");
  }

  @Test
  void assertionsSayWhatDiffers() {
    FakeSnapshot before = cgroups.snapshot();
    api.create("/job", ContainerSpec.empty());
    assertThatThrownBy(() -> CgroupAssertions.assertThat(cgroups).matches(before))
        .isInstanceOf(AssertionError.class).hasMessageContaining("/job");
    assertThatThrownBy(() -> CgroupAssertions.assertThat(cgroups).hasNoCgroupsButTheRoots())
        .isInstanceOf(AssertionError.class).hasMessageContaining("memory:/job");
  }

  @Test
  @FakeCgroups(layout = FakeLayout.V2)
  void aMethodCanAskForAnotherLayout() {
    assertThat(cgroups.hierarchies()).singleElement().extracting(h -> h.version()).isEqualTo(CgroupVersion.V2);
  }
}
