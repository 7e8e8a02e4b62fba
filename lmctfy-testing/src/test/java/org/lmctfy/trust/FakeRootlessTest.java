package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSnapshot;

/**
 * Rootless use on the fake, as downstream code tests its own delegation without root: root
 * delegates {@code /t} (owner), the tenant's process lives in {@code /t/session}, and a
 * ContainerApi over {@code fs.asUser(uid, gid)} on {@code /t} runs the lifecycle below it; outside
 * it every call is PERMISSION_DENIED and nothing changes. The same on the kernel: {@link
 * KernelRootlessTest}.
 */
class FakeRootlessTest {
  private static final int UID = 64_999;
  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
  private final ContainerApi root = ContainerApi.open(fs);
  private final Hierarchy unified = fs.hierarchies().get(0);

  private void delegate() {
    root.create(
        "/t",
        ContainerSpec.parse("memory { limit: 536870912 } owner: " + UID + " owner_group: " + UID));
    root.create("/t/session", ContainerSpec.empty());
    root.get("/t/session").enter(List.of(fs.selfPid()));
  }

  @Test
  void theTenantRunsTheLifecycleBelowItsDelegatedContainer() throws IOException {
    delegate();
    try (ContainerApi tenant = ContainerApi.open(fs.asUser(UID, UID), CgroupPath.of("/t"))) {
      Container job =
          tenant.create(
              "/job", ContainerSpec.parse("memory { limit: 104857600 } pids { limit: 10 }"));
      assertThat(fs.read(unified, CgroupPath.of("/t/job"), "memory.max").strip())
          .isEqualTo("104857600");
      assertThat(fs.owner(unified, CgroupPath.of("/t/job"), null)).isEqualTo(new Owner(UID, UID));
      job.update(ContainerSpec.parse("memory { limit: 209715200 }"), UpdatePolicy.DIFF);
      assertThat(job.spec())
          .isEqualTo(ContainerSpec.parse("memory { limit: 209715200 } pids { limit: 10 }"));
      job.run(List.of("/bin/true"), RunSpec.detached());
      assertThat(job.stats(StatsType.SUMMARY)).isNotNull();
      job.pause();
      job.resume();
      tenant.create("/job/below", ContainerSpec.empty());
      job.destroy();
      assertThat(tenant.exists("/job")).isFalse();
    }
    CgroupAssertions.assertThat(fs).hasNoContainer("/t/job");
    root.destroy("/t");
    CgroupAssertions.assertThat(fs).hasNoContainer("/t");
  }

  @Test
  void outsideItsSubtreeEveryCallIsPermissionDeniedAndNothingChanges() throws IOException {
    delegate();
    root.create("/other", ContainerSpec.parse("pids { limit: 5 }"));
    // more than the limit below: the tenant's update is refused before anything is reclaimed
    fs.kernel().setValue(unified, CgroupPath.of("/t"), "memory.current", "104857600\n");
    FakeSnapshot before = fs.snapshot();
    try (ContainerApi tenant = ContainerApi.open(fs.asUser(UID, UID), CgroupPath.root())) {
      for (Runnable call :
          List.<Runnable>of(
              () -> tenant.create("/mine", ContainerSpec.empty()),
              () ->
                  tenant
                      .get("/other")
                      .update(ContainerSpec.parse("pids { limit: 50 }"), UpdatePolicy.DIFF),
              () -> tenant.destroy("/other"),
              () ->
                  tenant
                      .get("/t")
                      .update(ContainerSpec.parse("memory { limit: 4096000 }"), UpdatePolicy.DIFF),
              () -> tenant.get("/other").run(List.of("/bin/true"), RunSpec.detached()))) {
        assertThatLmctfyException(call::run).hasCode(ErrorCode.PERMISSION_DENIED);
      }
    }
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void aRunWhoseProcessWouldCrossARootOwnedAncestorIsRefusedBeforeAnythingStarts()
      throws IOException {
    root.create("/t", ContainerSpec.parse("owner: " + UID + " owner_group: " + UID));
    root.create("/outside", ContainerSpec.empty());
    root.get("/outside").enter(List.of(fs.selfPid())); // the tenant's JVM outside its subtree
    try (ContainerApi tenant = ContainerApi.open(fs.asUser(UID, UID), CgroupPath.of("/t"))) {
      Container job = tenant.create("/job", ContainerSpec.empty());
      var processes = fs.processes().living();
      LmctfyException e =
          assertThatLmctfyException(() -> job.run(List.of("/bin/true"), RunSpec.detached()))
              .hasCode(ErrorCode.PERMISSION_DENIED)
              .actual();
      assertThat(e.getMessage())
          .contains("common ancestor", "cgroup.procs", "this JVM's cgroup", "nothing was moved");
      assertThat(fs.processes().living()).isEqualTo(processes);
    }
  }

  @Test
  void cleanupRemovesTheRecordOfADelegatedContainerWhoseDestroyWasCutShort() throws IOException {
    root.create("/t", ContainerSpec.parse("owner: " + UID + " owner_group: " + UID));
    assertThat(fs.markerKeys(unified, CgroupPath.root())).contains("record.t");
    fs.removeCgroup(
        unified, CgroupPath.of("/t")); // destroy removed the cgroup, and then the machine stopped
    var report = root.cleanup();
    assertThat(report.removed()).anySatisfy(r -> assertThat(r).startsWith("/t (the record"));
    assertThat(fs.markerKeys(unified, CgroupPath.root())).doesNotContain("record.t");
    assertThat(root.cleanup().removed()).isEmpty();
  }
}
