package org.lmctfy.testing;

/**
 * AssertJ entry points for cgroup state.
 *
 * <pre>{@code
 * FakeSnapshot before = cgroups.snapshot();
 * ... code under test fails half-way ...
 * CgroupAssertions.assertThat(cgroups).matches(before);
 * CgroupAssertions.assertThat(cgroups).hasContainer("/job").hasValue("/job", "pids.max", "64");
 * CgroupAssertions.assertThat(cgroups).hasNoContainer("/job").hasNoCgroupsButTheRoots();
 * }</pre>
 *
 * @since 0.1
 */
public final class CgroupAssertions {
  private CgroupAssertions() {}

  /**
   * Assertions on the state of {@code actual}.
   *
   * @param actual the fake the code under test worked on
   * @return its assertions
   */
  public static FakeCgroupFsAssert assertThat(FakeCgroupFs actual) {
    return new FakeCgroupFsAssert(actual);
  }
}
