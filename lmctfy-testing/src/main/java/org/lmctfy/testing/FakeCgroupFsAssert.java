package org.lmctfy.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * Assertions on the state of a {@link FakeCgroupFs}; start from {@link CgroupAssertions}.
 *
 * <p>The container assertions ({@link #hasContainer}, {@link #hasNoContainer}, {@link #hasValue})
 * speak of container names as {@code ContainerApi.open(fs)} sees them (the {@code @FakeCgroups}
 * one): below the mount roots, or on {@link FakeLayout#SYSTEMD_V2} below the test's unit {@code
 * /system.slice/app.service}; they hold on every {@link FakeLayout}. The cgroup assertions take a
 * {@code "<hierarchy label>:<path>"} and refuse a label the fake's layout does not have.
 */
public final class FakeCgroupFsAssert extends AbstractAssert<FakeCgroupFsAssert, FakeCgroupFs> {

  FakeCgroupFsAssert(FakeCgroupFs actual) {
    super(actual, FakeCgroupFsAssert.class);
  }

  /**
   * No hierarchy holds any cgroup but its root and those the fake started with (on {@link
   * FakeLayout#SYSTEMD_V2}: systemd's units, and the {@code @FakeCgroups} API's processes leaf),
   * and the processes leaf the library makes at its first create in a root delegated to it (on
   * {@link FakeLayout#KUBERNETES_POD}: {@code /lmctfy-supervisor}), which stays.
   *
   * @return this assertion
   */
  public FakeCgroupFsAssert hasNoCgroupsButTheRoots() {
    isNotNull();
    Set<String> start = actual.startingCgroups();
    Set<String> extra =
        actual.snapshot().cgroups().stream()
            .filter(c -> !c.endsWith(":/") && !start.contains(c) && !isProcessesLeaf(c))
            .collect(Collectors.toCollection(TreeSet::new));
    if (!extra.isEmpty()) {
      failWithMessage(
          "Expected no cgroups but the roots, but found:%n  %s", String.join("\n  ", extra));
    }
    return this;
  }

  /**
   * The whole tree (cgroups, files, markers, owners, processes) equals {@code expected}.
   *
   * @param expected the expected value
   * @return the whole tree (cgroups, files, markers, owners, processes) equals {@code expected}
   */
  public FakeCgroupFsAssert matches(FakeSnapshot expected) {
    isNotNull();
    List<String> differences = actual.snapshot().differencesFrom(expected);
    if (!differences.isEmpty()) {
      failWithMessage(
          "Expected the cgroup tree to match the snapshot, but:%n  %s",
          String.join("\n  ", differences));
    }
    return this;
  }

  /**
   * The container {@code name} ({@code "/jobs/build-1"}) exists whole: a cgroup at its path in
   * every hierarchy a container occupies (each with controllers, and the unified one).
   *
   * @param name the container's name
   * @return the container {@code name} ({@code "/jobs/build-1"}) exists whole: a cgroup at its path
   *     in every hierarchy a container occupies (each with controllers, and the unified one)
   */
  public FakeCgroupFsAssert hasContainer(String name) {
    isNotNull();
    Set<String> cgroups = actual.snapshot().cgroups();
    List<String> missing = new ArrayList<>();
    for (Hierarchy h : managed()) {
      if (!cgroups.contains(h.label() + ":" + path(name))) {
        missing.add(h.label());
      }
    }
    if (!missing.isEmpty()) {
      failWithMessage(
          "Expected container %s to exist, but it has no cgroup in %s; the tree holds:%n  %s",
          name, missing, String.join("\n  ", cgroups));
    }
    return this;
  }

  /**
   * Nothing is left of the container {@code name}: no hierarchy has a cgroup at its path.
   *
   * @param name the container's name
   * @return Nothing is left of the container {@code name}: no hierarchy has a cgroup at its path
   */
  public FakeCgroupFsAssert hasNoContainer(String name) {
    isNotNull();
    Set<String> cgroups = actual.snapshot().cgroups();
    List<String> left =
        actual.hierarchies().stream()
            .map(h -> h.label() + ":" + path(name))
            .filter(cgroups::contains)
            .toList();
    if (!left.isEmpty()) {
      failWithMessage("Expected nothing of container %s, but found %s", name, left);
    }
    return this;
  }

  /**
   * The interface file {@code file} of the container {@code name} reads {@code expected}, without
   * the kernel's final newline: {@code hasValue("/job", "memory.max", "104857600")}. Every
   * hierarchy that has the file there must agree; none having it fails.
   *
   * @param name the container's name
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @param expected the expected value
   * @return the interface file {@code file} of the container {@code name} reads {@code expected},
   *     without the kernel's final newline: {@code hasValue("/job", "memory.max", "104857600")}
   */
  public FakeCgroupFsAssert hasValue(String name, String file, String expected) {
    isNotNull();
    FakeSnapshot now = actual.snapshot();
    List<String> found = new ArrayList<>();
    for (Hierarchy h : actual.hierarchies()) {
      String value = now.file(h.label() + ":" + path(name), file);
      if (value != null) {
        found.add(h.label());
        if (!value.equals(expected)) {
          failWithMessage(
              "Expected %s of container %s to read \"%s\", but %s:%s reads \"%s\"",
              file, name, expected, h.label(), name, value);
        }
      }
    }
    if (found.isEmpty()) {
      failWithMessage(
          "Expected container %s to have %s, but no hierarchy of this layout has it there",
          name, file);
    }
    return this;
  }

  /**
   * The cgroup {@code "<hierarchy label>:<path>"} exists, e.g. {@code "memory:/a/b"}.
   *
   * @param cgroup the cgroup
   * @return the cgroup {@code "<hierarchy label>:<path>"} exists, e.g
   * @throws IllegalArgumentException if the fake's layout has no hierarchy of that label
   */
  public FakeCgroupFsAssert hasCgroup(String cgroup) {
    isNotNull();
    checkLabel(cgroup);
    if (!actual.snapshot().cgroups().contains(cgroup)) {
      failWithMessage(
          "Expected cgroup %s to exist, but the tree holds:%n  %s",
          cgroup, String.join("\n  ", actual.snapshot().cgroups()));
    }
    return this;
  }

  /**
   * The cgroup {@code "<hierarchy label>:<path>"} does not exist.
   *
   * @param cgroup the cgroup
   * @return the cgroup {@code "<hierarchy label>:<path>"} does not exist
   * @throws IllegalArgumentException if the fake's layout has no hierarchy of that label (on {@link
   *     FakeLayout#V2} there is no {@code "memory:"}, only {@code "unified:"}): such a cgroup could
   *     never exist, so the assertion would prove nothing
   */
  public FakeCgroupFsAssert hasNoCgroup(String cgroup) {
    isNotNull();
    checkLabel(cgroup);
    if (actual.snapshot().cgroups().contains(cgroup)) {
      failWithMessage("Expected cgroup %s not to exist, but it does", cgroup);
    }
    return this;
  }

  private void checkLabel(String cgroup) {
    int colon = cgroup.indexOf(':');
    String label = colon < 0 ? "" : cgroup.substring(0, colon);
    Set<String> labels =
        actual.hierarchies().stream()
            .map(Hierarchy::label)
            .collect(Collectors.toCollection(TreeSet::new));
    if (!labels.contains(label)) {
      throw new IllegalArgumentException(
          "\""
              + cgroup
              + "\" names no hierarchy of this fake (\"<label>:<path>\""
              + " with a label of "
              + labels
              + "); hasContainer and hasNoContainer hold on every layout");
    }
  }

  /**
   * A cgroup ({@code "label:/path"}) its parent marks as a processes leaf ({@code leaf.<name>}).
   */
  private boolean isProcessesLeaf(String cgroup) {
    int colon = cgroup.indexOf(':');
    String label = cgroup.substring(0, colon);
    CgroupPath path = CgroupPath.of(cgroup.substring(colon + 1));
    for (Hierarchy h : actual.hierarchies()) {
      if (h.label().equals(label)) {
        try {
          return actual.marker(h, path.parent(), "leaf." + path.name()).isPresent();
        } catch (java.io.IOException e) {
          return false;
        }
      }
    }
    return false;
  }

  /** The cgroup path of a container name, below the root {@code ContainerApi.open(fs)} uses. */
  private String path(String name) {
    return CgroupPath.of(name).under(actual.containerRoot()).value();
  }

  private List<Hierarchy> managed() {
    return actual.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
        .toList();
  }
}
