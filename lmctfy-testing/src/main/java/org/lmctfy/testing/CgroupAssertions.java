package org.lmctfy.testing;

/**
 * AssertJ entry points for cgroup state.
 *
 * <pre>{@code
 * FakeSnapshot before = cgroups.snapshot();
 * ... code under test fails half-way ...
 * CgroupAssertions.assertThat(cgroups).matches(before);
 * CgroupAssertions.assertThat(cgroups).hasNoCgroupsButTheRoots();
 * }</pre>
 */
public final class CgroupAssertions {
  private CgroupAssertions() {}

  public static FakeCgroupFsAssert assertThat(FakeCgroupFs actual) {
    return new FakeCgroupFsAssert(actual);
  }
}
