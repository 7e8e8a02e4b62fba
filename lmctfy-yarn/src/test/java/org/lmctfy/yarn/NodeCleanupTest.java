package org.lmctfy.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.proto.YarnProtos.ApplicationIdProto;
import org.apache.hadoop.yarn.proto.YarnServerNodemanagerRecoveryProtos.ContainerManagerApplicationProto;
import org.apache.hadoop.yarn.server.nodemanager.recovery.NMStateStoreService.RecoveredApplicationsState;
import org.apache.hadoop.yarn.server.nodemanager.recovery.NMStateStoreService.RecoveredContainerState;
import org.apache.hadoop.yarn.server.nodemanager.recovery.NMStateStoreService.RecoveredContainerStatus;
import org.apache.hadoop.yarn.server.nodemanager.recovery.RecoveryIterator;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeCrash;
import org.lmctfy.testing.FakeLayout;

/**
 * Crash safety at the node, on the fake: at start the executor finishes what a crash left half-made
 * or half-destroyed and destroys every container the NodeManager will not reacquire (unknown
 * applications, completed containers, all of them without recovery), keeping the others with their
 * processes. On the kernel: {@link KernelYarnRecoveryTest}.
 */
class NodeCleanupTest {
  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
  private final ContainerId launched = FakeNode.id(1, 2);
  private final ContainerId paused = FakeNode.id(1, 3);
  private final ContainerId completed = FakeNode.id(1, 4);
  private final ContainerId ofAnUnknownApp = FakeNode.id(2, 2);

  private static <T> RecoveryIterator<T> iterator(List<T> items) {
    Iterator<T> it = items.iterator();
    return new RecoveryIterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public T next() {
        return it.next();
      }

      @Override
      public void close() {}
    };
  }

  private static RecoveredContainerState state(ContainerId id, RecoveredContainerStatus status) {
    RecoveredContainerState s = mock(RecoveredContainerState.class);
    when(s.getContainerId()).thenReturn(id);
    when(s.getStatus()).thenReturn(status);
    return s;
  }

  /**
   * A state store that recovers application 1 with its containers, and knows of application 2 only
   * its container.
   */
  private void recovering(FakeNode node) throws IOException {
    when(node.store.canRecover()).thenReturn(true);
    RecoveredApplicationsState apps = mock(RecoveredApplicationsState.class);
    ContainerManagerApplicationProto app1 =
        ContainerManagerApplicationProto.newBuilder()
            .setId(ApplicationIdProto.newBuilder().setClusterTimestamp(FakeNode.CLUSTER).setId(1))
            .build();
    when(apps.getIterator()).thenReturn(iterator(List.of(app1)));
    when(node.store.loadApplicationsState()).thenReturn(apps);
    List<RecoveredContainerState> containers =
        List.of(
            state(launched, RecoveredContainerStatus.LAUNCHED),
            state(paused, RecoveredContainerStatus.PAUSED),
            state(completed, RecoveredContainerStatus.COMPLETED),
            state(ofAnUnknownApp, RecoveredContainerStatus.LAUNCHED));
    when(node.store.getContainerStateIterator()).thenReturn(iterator(containers));
  }

  @Test
  void theContainersReacquiredAreThoseLaunchedOrPausedOfTheApplicationsTheStoreHolds()
      throws IOException {
    try (FakeNode node = new FakeNode(fs)) {
      recovering(node);
      assertThat(NodeCleanup.reacquired(node.store))
          .containsExactlyInAnyOrder(launched.toString(), paused.toString());
      when(node.store.canRecover()).thenReturn(false);
      assertThat(NodeCleanup.reacquired(node.store)).isEmpty();
    }
  }

  /** Makes the container {@code id} below /hadoop-yarn with a process in it. */
  private static void running(ContainerApi api, ContainerId id) {
    api.create("/hadoop-yarn/" + id, ContainerSpec.parse("memory { limit: 64M }"));
    api.get("/hadoop-yarn/" + id).run(List.of("sleep", "1000"), RunSpec.detached());
  }

  @Test
  void atStartEveryContainerTheNodeManagerWillNotReacquireIsDestroyedAndHalfMadeOnesFinished()
      throws IOException {
    try (FakeNode node = new FakeNode(fs)) {
      ContainerApi api = node.api();
      api.create("/hadoop-yarn", ContainerSpec.empty());
      for (ContainerId id : List.of(launched, paused, completed, ofAnUnknownApp)) {
        running(api, id);
      }
      ContainerId halfMade = FakeNode.id(1, 5);
      fs.faults().crashAt(3); // the create of halfMade dies after its intent and first cgroup
      assertThatThrownBy(() -> api.create("/hadoop-yarn/" + halfMade, ContainerSpec.empty()))
          .isInstanceOf(FakeCrash.class);
      fs.faults().recover();
      recovering(node);

      node.init();

      assertThat(api.get("/hadoop-yarn").listSubcontainers(ListPolicy.SELF))
          .containsExactlyInAnyOrder("/hadoop-yarn/" + launched, "/hadoop-yarn/" + paused);
      assertThat(api.get("/hadoop-yarn/" + launched).listProcesses(ListPolicy.SELF)).hasSize(1);
      for (ContainerId gone : List.of(completed, ofAnUnknownApp, halfMade)) {
        CgroupAssertions.assertThat(fs).hasNoContainer("/hadoop-yarn/" + gone);
      }
      assertThat(fs.processes().living()).hasSize(2 + 2); // pid 1, the test's own, two kept
    }
  }

  @Test
  void withoutRecoveryEveryContainerOfAnEarlierNodeManagerIsDestroyed() throws IOException {
    try (FakeNode node = new FakeNode(fs)) {
      ContainerApi api = node.api();
      Set<Long> before = fs.processes().living();
      api.create("/hadoop-yarn", ContainerSpec.empty());
      running(api, launched);
      running(api, ofAnUnknownApp);
      node.init();
      assertThat(api.get("/hadoop-yarn").listSubcontainers(ListPolicy.SELF)).isEmpty();
      assertThat(fs.processes().living()).isEqualTo(before);
    }
  }
}
