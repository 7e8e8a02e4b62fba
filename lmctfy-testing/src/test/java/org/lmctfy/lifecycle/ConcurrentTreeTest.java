package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** Children created while their parent is destroyed, from several threads: the tree stays whole. */
class ConcurrentTreeTest {

  @Test
  void creatingChildrenWhileTheParentIsDestroyedLeavesOnlyWholeContainers() throws Exception {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    ContainerApi api = ContainerApi.open(fs);
    ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    threads.add(
        loop(unexpected, () -> api.create("/p", ContainerSpec.empty()), () -> api.destroy("/p")));
    threads.add(
        loop(unexpected, () -> api.create("/p/c", ContainerSpec.parse("pids { limit: 5 }"))));
    threads.add(
        loop(
            unexpected,
            () -> api.create("/p/c/d", ContainerSpec.empty()),
            () -> api.destroy("/p/c")));
    for (Thread t : threads) {
      t.join();
    }
    assertThat(unexpected).isEmpty();
    assertThat(api.cleanup().removed()).isEmpty();
    for (String name : api.get("/").listSubcontainers(ListPolicy.RECURSIVE)) {
      assertThat(api.exists(name)).isTrue();
    }
    if (api.exists("/p")) {
      api.destroy("/p");
    }
    CgroupAssertions.assertThat(fs).hasNoCgroupsButTheRoots();
  }

  /** Runs each step in turn 300 times; answers other than ALREADY_EXISTS and NOT_FOUND are kept. */
  private static Thread loop(ConcurrentLinkedQueue<String> unexpected, Runnable... steps) {
    Thread t =
        new Thread(
            () -> {
              for (int i = 0; i < 300; i++) {
                for (Runnable step : steps) {
                  try {
                    step.run();
                  } catch (LmctfyException e) {
                    if (e.code() != ErrorCode.ALREADY_EXISTS && e.code() != ErrorCode.NOT_FOUND) {
                      unexpected.add(e.toString());
                    }
                  }
                }
              }
            });
    t.start();
    return t;
  }
}
