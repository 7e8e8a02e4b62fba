package org.lmctfy.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSnapshot;

/**
 * A program in a Kubernetes pod's container with writable cgroups, on the fake's {@link
 * FakeLayout#KUBERNETES_POD}: plain {@code ContainerApi.open(fs)} at the root of the container's
 * cgroup namespace, under the kubelet's caps on the pod's cgroup, which it cannot see (the same
 * sequence as {@code KernelCgroupNamespaceTest} on the kernel of the v2 guests).
 */
class FakeKubernetesPodTest {
  private static final ContainerSpec SPEC = ContainerSpec.parse("memory { limit: 64M }");

  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.KUBERNETES_POD);
  private final Hierarchy unified = fs.hierarchies().get(0);
  private final ContainerApi api = ContainerApi.open(fs);

  @AfterEach
  void close() {
    api.close();
  }

  @Test
  void theApiRootsAtTheNamespaceRootAndMovesItsProcessesIntoTheSupervisorLeaf() throws IOException {
    assertThat(api.root()).isEqualTo(CgroupPath.root());
    assertThat(fs.cgroupsOf(fs.selfPid()).get(unified)).isEqualTo(CgroupPath.root());
    api.create("/job", SPEC);
    assertThat(fs.cgroupsOf(fs.selfPid()).get(unified))
        .isEqualTo(CgroupPath.of("/lmctfy-supervisor"));
    assertThat(fs.read(unified, CgroupPath.root(), "cgroup.procs")).isEmpty();
    CgroupAssertions.assertThat(fs).hasContainer("/job").hasValue("/job", "memory.max", "67108864");
    api.destroy("/job");
    CgroupAssertions.assertThat(fs).hasNoContainer("/job").hasNoCgroupsButTheRoots();
  }

  @Test
  void theNamespaceRootTakesOnlyMembershipAndControllersAndItsAncestorsAreNotVisible()
      throws IOException {
    CgroupPath root = CgroupPath.root();
    for (String file : new String[] {"memory.max", "cgroup.max.descendants", "cgroup.max.depth"}) {
      CgroupFsException e = writeRefused(root, file, "1000");
      assertThat(e.errno()).as(file).isEqualTo(Errno.EPERM);
    }
    assertThat(fs.read(unified, root, "cgroup.max.descendants").strip()).isEqualTo("max");
    assertThat(fs.read(unified, root, "cgroup.type").strip()).isEqualTo("domain");
    assertThat(fs.read(unified, root, "cgroup.controllers").strip())
        .isEqualTo("cpuset cpu io memory hugetlb pids rdma misc");
    assertThat(fs.delegated(unified, root)).isTrue();
    // no internal processes: the root's processes must leave before it enables a controller
    assertThat(writeRefused(root, "cgroup.subtree_control", "+memory").errno())
        .isEqualTo(Errno.EBUSY);
    assertThat(fs.children(unified, root)).isEmpty(); // no sibling, no ancestor: the pod's hidden
    assertThat(removeRefused(root).errno()).isEqualTo(Errno.EBUSY);
  }

  private CgroupFsException writeRefused(CgroupPath path, String file, String value) {
    try {
      fs.write(unified, path, file, value);
    } catch (CgroupFsException e) {
      return e;
    }
    throw new AssertionError(file + " took " + value);
  }

  private CgroupFsException removeRefused(CgroupPath path) {
    try {
      fs.removeCgroup(unified, path);
    } catch (CgroupFsException e) {
      return e;
    }
    throw new AssertionError(path + " was removed");
  }

  /**
   * Creates {@code /c1}, {@code /c2}... until one is refused; returns how many were made. The pod's
   * cgroup counts the sandbox's cgroup, the container's own and its processes leaf besides them.
   */
  private int createUntilRefused(String prefix, boolean nested) {
    String name = "";
    for (int i = 1; i <= 300; i++) {
      String next = nested ? name + "/" + prefix + i : "/" + prefix + i;
      try {
        api.create(next, ContainerSpec.empty());
      } catch (LmctfyException e) {
        return i - 1;
      }
      name = next;
    }
    throw new AssertionError("300 creates, none refused");
  }

  @Test
  void the251stDescendantOfThePodIsResourceExhaustedAndNothingChanges() {
    api.create("/c1", ContainerSpec.empty());
    for (int i = 2; i <= 247; i++) {
      api.create("/c" + i, ContainerSpec.empty());
    }
    FakeSnapshot before = fs.snapshot();
    LmctfyException e =
        assertThatLmctfyException(() -> api.create("/c248", SPEC))
            .hasCode(ErrorCode.RESOURCE_EXHAUSTED)
            .hasErrno(Errno.EAGAIN)
            .hasFileEndingWith("/sys/fs/cgroup/c248")
            .actual();
    assertThat(e.getMessage())
        .contains(
            "no cgroup.max.descendants or cgroup.max.depth of /sys/fs/cgroup or below is reached",
            "/sys/fs/cgroup has 248 descendants",
            "the cap is on an ancestor of /sys/fs/cgroup, the root of this cgroup namespace",
            "cgroup.max.descendants 250 and cgroup.max.depth 50");
    CgroupAssertions.assertThat(fs).matches(before).hasNoContainer("/c248");

    api.destroy("/c1"); // a removed cgroup no longer counts
    api.create("/c248", SPEC);
    CgroupAssertions.assertThat(fs).hasContainer("/c248");
  }

  @Test
  void aContainerBelowThePodsDepthCapIsResourceExhaustedAndNothingChanges() {
    // the pod's cgroup is one level above the namespace root, and the cap counts from it
    assertThat(createUntilRefused("d", true)).isEqualTo(49);
    FakeSnapshot before = fs.snapshot();
    StringBuilder deepest = new StringBuilder();
    for (int i = 1; i <= 49; i++) {
      deepest.append("/d").append(i);
    }
    String refused = deepest + "/d50";
    LmctfyException e =
        assertThatLmctfyException(() -> api.create(refused, ContainerSpec.empty()))
            .hasCode(ErrorCode.RESOURCE_EXHAUSTED)
            .hasErrno(Errno.EAGAIN)
            .actual();
    assertThat(e.getMessage())
        .contains("the new cgroup would be at depth 50 below it", "the cap is on an ancestor");
    CgroupAssertions.assertThat(fs).matches(before);
  }
}
