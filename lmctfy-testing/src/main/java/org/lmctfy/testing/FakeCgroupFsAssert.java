package org.lmctfy.testing;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/** Assertions on the state of a {@link FakeCgroupFs}; start from {@link CgroupAssertions}. */
public final class FakeCgroupFsAssert extends AbstractAssert<FakeCgroupFsAssert, FakeCgroupFs> {

  FakeCgroupFsAssert(FakeCgroupFs actual) {
    super(actual, FakeCgroupFsAssert.class);
  }

  /** No hierarchy holds any cgroup but its root. */
  public FakeCgroupFsAssert hasNoCgroupsButTheRoots() {
    isNotNull();
    Set<String> extra = actual.snapshot().cgroups().stream().filter(c -> !c.endsWith(":/"))
        .collect(Collectors.toCollection(java.util.TreeSet::new));
    if (!extra.isEmpty()) {
      failWithMessage("Expected no cgroups but the roots, but found:%n  %s", String.join("\n  ", extra));
    }
    return this;
  }

  /** The whole tree (cgroups, files, markers, owners, processes) equals {@code expected}. */
  public FakeCgroupFsAssert matches(FakeSnapshot expected) {
    isNotNull();
    List<String> differences = actual.snapshot().differencesFrom(expected);
    if (!differences.isEmpty()) {
      failWithMessage("Expected the cgroup tree to match the snapshot, but:%n  %s", String.join("\n  ", differences));
    }
    return this;
  }

  /** The cgroup {@code "<hierarchy label>:<path>"} exists, e.g. {@code "memory:/a/b"}. */
  public FakeCgroupFsAssert hasCgroup(String cgroup) {
    isNotNull();
    if (!actual.snapshot().cgroups().contains(cgroup)) {
      failWithMessage("Expected cgroup %s to exist, but the tree holds:%n  %s", cgroup,
          String.join("\n  ", new java.util.TreeSet<>(actual.snapshot().cgroups())));
    }
    return this;
  }

  /** The cgroup {@code "<hierarchy label>:<path>"} does not exist. */
  public FakeCgroupFsAssert hasNoCgroup(String cgroup) {
    isNotNull();
    if (actual.snapshot().cgroups().contains(cgroup)) {
      failWithMessage("Expected cgroup %s not to exist, but it does", cgroup);
    }
    return this;
  }
}
