package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
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
    fs.faults().failWhen(op -> "memory.max".equals(op.file()), Errno.EINVAL);
    assertThatLmctfyException(() -> api.create("/b", MEMORY)).hasCode(ErrorCode.INVALID_ARGUMENT);
    assertThat(subtree()).doesNotContain("memory");
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void aFailedCreateLeavesControllersASiblingMayUse() throws IOException {
    api.create("/a", ContainerSpec.empty()); // there when /b's create enables memory in the root
    fs.faults()
        .failWhen(
            op -> "memory.max".equals(op.file()) && op.path().value().endsWith("/b"), Errno.EINVAL);

    assertThatLmctfyException(() -> api.create("/b", MEMORY)).hasCode(ErrorCode.INVALID_ARGUMENT);

    assertThat(subtree()).contains("memory");
    assertThat(fs.hasFile(unified, CgroupPath.of("/a"), "memory.max"))
        .as("the sibling keeps its files")
        .isTrue();
    CgroupAssertions.assertThat(fs).hasNoContainer("/b");
    api.create("/c", MEMORY); // and a container with the controller is made as before
    CgroupAssertions.assertThat(fs).hasValue("/c", "memory.max", "67108864");
  }

  /**
   * The undo of a failed create looks for siblings, then disables; a sibling's create made between
   * the look and the write would lose its controller (its limit's file gone, ENOENT, or its limit
   * silently dropped after it committed). Here the undo is held just before its write until the
   * sibling's create is done, or for a second: the look-then-write must exclude the create's
   * look-then-enable, so the sibling waits, and finds its controller enabled either way.
   */
  @Test
  void anUndoAndASiblingsCreateNeverInterleave() throws Exception {
    CountDownLatch undoPaused = new CountDownLatch(1);
    CountDownLatch siblingDone = new CountDownLatch(1);
    CgroupFs paused =
        (CgroupFs)
            Proxy.newProxyInstance(
                CgroupFs.class.getClassLoader(),
                new Class<?>[] {CgroupFs.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("write")
                      && "cgroup.subtree_control".equals(args[2])
                      && ((String) args[3]).startsWith("-")) {
                    undoPaused.countDown();
                    // the sibling's create cannot finish while this holds the lock
                    siblingDone.await(1, TimeUnit.SECONDS);
                  }
                  try {
                    return method.invoke(fs, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    ContainerApi shared = ContainerApi.open(paused, CgroupPath.root());
    fs.faults()
        .failWhen(
            op -> "memory.max".equals(op.file()) && op.path().value().endsWith("/b"), Errno.EINVAL);

    CompletableFuture<Void> failing = CompletableFuture.runAsync(() -> shared.create("/b", MEMORY));
    assertThat(undoPaused.await(10, TimeUnit.SECONDS))
        .as("the failed create's undo reached its write")
        .isTrue();
    CompletableFuture<Void> sibling =
        CompletableFuture.runAsync(() -> shared.create("/a", MEMORY))
            .whenComplete((ok, e) -> siblingDone.countDown());

    sibling.get(10, TimeUnit.SECONDS);
    assertThat(failing)
        .failsWithin(10, TimeUnit.SECONDS)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .havingCause()
        .isInstanceOf(LmctfyException.class);
    CgroupAssertions.assertThat(fs).hasValue("/a", "memory.max", "67108864");
    assertThat(subtree()).contains("memory");
    CgroupAssertions.assertThat(fs).hasNoContainer("/b");
  }
}
