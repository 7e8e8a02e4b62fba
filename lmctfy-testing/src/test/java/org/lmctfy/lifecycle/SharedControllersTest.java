package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSnapshot;

/**
 * A failed create or update takes back the v2 controllers it enabled, but never from under a
 * sibling: a container made meanwhile, by this process or another, may use them.
 */
class SharedControllersTest {
  final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2_BARE);
  final ContainerApi api = ContainerApi.open(fs, CgroupPath.root());
  final Hierarchy unified = fs.hierarchies().get(0);
  static final ContainerSpec MEMORY = ContainerSpec.parse("memory { limit: 64M }");

  private String subtree() throws IOException {
    return fs.read(unified, CgroupPath.root(), "cgroup.subtree_control").strip();
  }

  @Test
  void aFailedCreateAloneTakesBackWhatItEnabled() throws IOException {
    FakeSnapshot before = fs.snapshot();
    fs.failWhen(op -> "memory.max".equals(op.file()), Errno.EINVAL);
    assertThatLmctfyException(() -> api.create("/b", MEMORY)).hasCode(ErrorCode.INVALID_ARGUMENT);
    assertThat(subtree()).doesNotContain("memory");
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void aFailedCreateLeavesControllersASiblingMayUse() throws IOException {
    api.create("/a", ContainerSpec.empty()); // there when /b's create enables memory in the root
    fs.failWhen(op -> "memory.max".equals(op.file()) && op.path().value().endsWith("/b"), Errno.EINVAL);

    assertThatLmctfyException(() -> api.create("/b", MEMORY)).hasCode(ErrorCode.INVALID_ARGUMENT);

    assertThat(subtree()).contains("memory");
    assertThat(fs.hasFile(unified, CgroupPath.of("/a"), "memory.max")).as("the sibling keeps its files").isTrue();
    CgroupAssertions.assertThat(fs).hasNoContainer("/b");
    api.create("/c", MEMORY); // and a container with the controller is made as before
    CgroupAssertions.assertThat(fs).hasValue("/c", "memory.max", "67108864");
  }
}
