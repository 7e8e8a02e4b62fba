package org.lmctfy.kernel.vhost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeCrash;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeRun;
import org.lmctfy.testing.FakeSnapshot;
import org.lmctfy.testing.FakeVirtualHost;
import org.lmctfy.vhost.Blueprint;

/** Virtual hosts on the fake: the library's rules and lifecycle, and the fake's model of them. */
class FakeVirtualHostTest {
  static final ContainerSpec MACHINE =
      ContainerSpec.parse(
          "memory { limit: 64M } virtual_host {"
              + " virtual_hostname: 'vh' network {} } filesystem { rootfs: '/srv/vh'"
              + " mounts { mount { source: '/srv/data' target: '/data' read_only: true } } }");

  final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
  final ContainerApi api = ContainerApi.open(fs);

  private Hierarchy unified() {
    return fs.hierarchies().get(0);
  }

  @Test
  void createStartsTheInitInTheContainersCgroupsAndSpecRoundTrips() {
    Container vh = api.create("/vh", MACHINE);

    long init = vh.initPid();
    assertThat(vh.listProcesses(ListPolicy.SELF)).containsExactly(init);
    assertThat(fs.processes().commandOf(init)).hasValue(List.of("catatonit", "-P"));
    FakeVirtualHost host = fs.processes().virtualHostOf(init).orElseThrow();
    assertThat(host.initPid()).isEqualTo(init);
    assertThat(host.blueprint())
        .isEqualTo(
            new Blueprint(
                "vh",
                true,
                "/srv/vh",
                List.of(new Blueprint.Bind("/srv/data", "/data", true)),
                Blueprint.Init.DEFAULT));
    assertThat(vh.spec()).isEqualTo(api.normalise(MACHINE));
    assertThat(vh.spec().virtualHost().virtualHostname()).isEqualTo("vh");
  }

  @Test
  void aContainerInNoVirtualHostHasTheMachinesInitAsLmctfySaid() {
    assertThat(api.create("/job", ContainerSpec.empty()).initPid()).isEqualTo(1);
  }

  @Test
  void aRunJoinsTheVirtualHostAndItsCgroupsAndAChildItForksIsInsideToo() throws Exception {
    Container vh = api.create("/vh", MACHINE);
    fs.processes()
        .onRun(
            command -> command.get(0).equals("/bin/daemon") ? FakeRun.exits(0).forking(1) : null);

    ContainerProcess p = vh.run(List.of("/bin/hostname"), RunSpec.inherit());
    ContainerProcess d = vh.run(List.of("/bin/daemon"), RunSpec.detached());
    assertThat(d.waitFor()).isZero();

    assertThat(fs.processes().commandOf(p.pid())).hasValue(List.of("/bin/hostname"));
    assertThat(fs.processes().virtualHostOf(p.pid()).orElseThrow().initPid())
        .isEqualTo(vh.initPid());
    assertThat(fs.cgroupsOf(p.pid())).containsEntry(unified(), CgroupPath.of("/vh"));
    List<Long> inside = vh.listProcesses(ListPolicy.SELF);
    assertThat(inside).hasSize(3); // the init, the hostname, the daemon's child
    assertThat(inside).allSatisfy(pid -> assertThat(fs.processes().virtualHostOf(pid)).isPresent());
  }

  @Test
  void aRunIntoASubcontainerOfAVirtualHostJoinsItAndItsOwnProcessesCanBeEnteredThere()
      throws Exception {
    Container vh = api.create("/vh", MACHINE);
    Container sub = api.create("/vh/sub", ContainerSpec.empty());

    ContainerProcess p = vh.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
    ContainerProcess q = sub.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
    sub.enter(List.of(p.pid()));

    assertThat(fs.processes().virtualHostOf(q.pid()).orElseThrow().initPid())
        .isEqualTo(vh.initPid());
    assertThat(sub.listProcesses(ListPolicy.SELF)).containsExactlyInAnyOrder(p.pid(), q.pid());
    assertThat(sub.initPid()).isEqualTo(vh.initPid());
  }

  @Test
  void aProcessOutsideCannotBeEnteredIntoAVirtualHostAndNothingMoves() {
    Container vh = api.create("/vh", MACHINE);
    long outside = fs.processes().spawn();

    assertThatLmctfyException(() -> vh.enter(List.of(outside)))
        .hasMessageContaining("is not inside the virtual host /vh")
        .hasCode(ErrorCode.FAILED_PRECONDITION);
    assertThat(vh.listProcesses(ListPolicy.SELF)).containsExactly(vh.initPid());
  }

  @Test
  void killAllEndsTheInitAndEveryProcessAndTheNextRunBootsANewInit() throws Exception {
    Container vh = api.create("/vh", MACHINE);
    long first = vh.initPid();
    ContainerProcess p = vh.run(List.of("/bin/sleep", "60"), RunSpec.inherit());

    vh.killAll();

    assertThat(p.waitFor()).isEqualTo(137);
    assertThat(vh.listProcesses(ListPolicy.RECURSIVE)).isEmpty();
    assertThatThrownBy(vh::initPid)
        .hasMessageContaining("is not running")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.NOT_FOUND);

    ContainerProcess q = vh.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
    long second = vh.initPid();
    assertThat(second).isNotEqualTo(first);
    assertThat(fs.processes().virtualHostOf(q.pid()).orElseThrow().initPid()).isEqualTo(second);
  }

  @Test
  void whenTheInitEndsEveryProcessOfTheVirtualHostIsKilledAsThePidNamespaceEnds() throws Exception {
    Container vh = api.create("/vh", MACHINE);
    ContainerProcess p = vh.run(List.of("/bin/sleep", "60"), RunSpec.inherit());

    fs.processes().exit(vh.initPid(), 0);

    assertThat(p.waitFor()).isEqualTo(137);
    assertThat(vh.listProcesses(ListPolicy.SELF)).isEmpty();
  }

  @Test
  void destroyLeavesNoProcessAndNoCgroup() throws Exception {
    FakeSnapshot clean = fs.snapshot();
    Set<Long> before = fs.processes().living();
    Container vh = api.create("/vh", MACHINE);
    vh.run(List.of("/bin/sleep", "60"), RunSpec.inherit());

    vh.destroy();

    assertThat(fs.processes().living()).isEqualTo(before);
    CgroupAssertions.assertThat(fs).matches(clean);
  }

  @Test
  void aNestedVirtualHostIsUnimplementedAndNothingIsMade() {
    api.create("/a", ContainerSpec.empty());
    FakeSnapshot before = fs.snapshot();
    int mutations = fs.record().count();

    assertThatThrownBy(() -> api.create("/a/vh", ContainerSpec.parse("virtual_host {}")))
        .hasMessageContaining("only a top-level container can be a virtual host")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.UNIMPLEMENTED);
    assertThat(fs.record().count()).isEqualTo(mutations);
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void whatIsNotImplementedIsRefusedNamingTheFieldBeforeAnythingIsMade() {
    int mutations = fs.record().count();
    assertThatThrownBy(
            () ->
                api.create(
                    "/vh", ContainerSpec.parse("virtual_host { network { interface: 'eth1' } }")))
        .hasMessageContaining("virtual_host.network.interface")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.UNIMPLEMENTED);
    assertThatThrownBy(
            () ->
                api.create(
                    "/vh",
                    ContainerSpec.parse(
                        "virtual_host {} filesystem { mounts {"
                            + " mount { source: '/a' target: '/a' private: true } } }")))
        .hasMessageContaining("filesystem.mounts.mount[0].private")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.UNIMPLEMENTED);
    assertThatThrownBy(() -> api.create("/vh", ContainerSpec.parse("owner: 1000 virtual_host {}")))
        .hasMessageContaining("a delegated virtual host is not implemented")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.UNIMPLEMENTED);
    assertThat(fs.record().count()).isEqualTo(mutations);
    assertThat(api.exists("/vh")).isFalse();
  }

  @Test
  void updateRefusesToChangeAVirtualHostButAcceptsItRepeatedAndTheLimitsChange() {
    Container vh = api.create("/vh", MACHINE);

    assertThatThrownBy(
            () ->
                vh.update(
                    ContainerSpec.parse("virtual_host { virtual_hostname: 'other' }"),
                    UpdatePolicy.DIFF))
        .hasMessageContaining("cannot change on a running virtual host")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.UNIMPLEMENTED);
    vh.update(
        MACHINE.toBuilder().memory(ContainerSpec.parse("memory { limit: 32M }").memory()).build(),
        UpdatePolicy.DIFF);
    vh.update(ContainerSpec.parse("memory { limit: 16M }"), UpdatePolicy.REPLACE);

    assertThat(vh.spec().memory().limit()).isEqualTo(16L << 20);
    assertThat(vh.spec().virtualHost()).isEqualTo(MACHINE.virtualHost());
    assertThat(fs.processes().virtualHostOf(vh.initPid())).isPresent();
  }

  @Test
  void aContainerBecomesAVirtualHostOnlyAtCreate() {
    Container job = api.create("/job", ContainerSpec.empty());
    assertThatThrownBy(() -> job.update(ContainerSpec.parse("virtual_host {}"), UpdatePolicy.DIFF))
        .hasMessageContaining("only when it is created")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.UNIMPLEMENTED);
  }

  @Test
  void anInitThatExitsAtOnceFailsTheCreateAndLeavesNothing() {
    FakeSnapshot clean = fs.snapshot();
    Set<Long> before = fs.processes().living();
    fs.processes()
        .onRun(command -> command.get(0).equals("/sbin/broken") ? FakeRun.exits(1) : null);

    assertThatThrownBy(
            () ->
                api.create(
                    "/vh",
                    ContainerSpec.parse("virtual_host { init { init_argv: '/sbin/broken' } }")))
        .hasMessageContaining("exited with status 1")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.FAILED_PRECONDITION);
    assertThat(fs.processes().living()).isEqualTo(before);
    CgroupAssertions.assertThat(fs).matches(clean);
  }

  @Test
  void aRefusedPlacementOfTheInitUndoesTheCreate() {
    FakeSnapshot clean = fs.snapshot();
    fs.faults().failWhen(op -> "cgroup.procs".equals(op.file()), Errno.EBUSY);

    assertThatLmctfyException(() -> api.create("/vh", MACHINE))
        .hasMessageContaining("cgroup.procs");
    CgroupAssertions.assertThat(fs).matches(clean);
  }

  @Test
  void aTenantMakesAVirtualHostInItsDelegatedSubtree() throws Exception {
    ContainerApi root = ContainerApi.open(fs);
    root.create("/t", ContainerSpec.parse("owner: 1000 owner_group: 1000"));
    CgroupPath tenantRoot = CgroupPath.of("/t");
    // the tenant's own process runs in a leaf of its subtree, as a session does
    root.create("/t/session", ContainerSpec.empty());
    root.get("/t/session").enter(List.of(fs.selfPid()));
    ContainerApi tenant = ContainerApi.open(fs.asUser(1000, 1000), tenantRoot);

    Container vh = tenant.create("/vh", ContainerSpec.parse("virtual_host {}"));
    ContainerProcess p = vh.run(List.of("/bin/sh"), RunSpec.inherit());

    assertThat(fs.processes().virtualHostOf(p.pid()).orElseThrow().initPid())
        .isEqualTo(vh.initPid());
    vh.destroy();
    assertThat(fs.processes().virtualHostOf(p.pid())).isEmpty();
  }

  @Test
  void rootNeverJoinsAVirtualHostItsTenantRecordedAndSaysWhy() throws Exception {
    ContainerApi root = ContainerApi.open(fs);
    root.create("/t", ContainerSpec.parse("owner: 1000 owner_group: 1000"));
    root.create("/t/session", ContainerSpec.empty());
    root.get("/t/session").enter(List.of(fs.selfPid()));
    ContainerApi tenant = ContainerApi.open(fs.asUser(1000, 1000), CgroupPath.of("/t"));
    Container vh = tenant.create("/vh", ContainerSpec.parse("virtual_host {}"));
    ContainerApi rootOnTenant = ContainerApi.open(fs, CgroupPath.of("/t"));
    List<Long> before = vh.listProcesses(ListPolicy.SELF);

    assertThatThrownBy(() -> rootOnTenant.get("/vh").run(List.of("/bin/sh"), RunSpec.inherit()))
        .hasMessageContaining("whose markers uid 0 does not believe")
        .hasMessageContaining("run it as uid 1000")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.FAILED_PRECONDITION);
    assertThat(vh.listProcesses(ListPolicy.SELF)).isEqualTo(before);
  }

  static IntStream createSteps() {
    FakeCgroupFs probe = FakeCgroupFs.create(FakeLayout.V2);
    ContainerApi api = ContainerApi.open(probe);
    int before = probe.record().count();
    api.create("/vh", MACHINE);
    return IntStream.rangeClosed(1, probe.record().count() - before);
  }

  @ParameterizedTest(name = "crash at create step {0}, then cleanup: nothing left")
  @MethodSource("createSteps")
  void aCrashAtEveryStepOfCreateThenCleanupLeavesNoProcessAndNoCgroup(int k) {
    FakeSnapshot clean = fs.snapshot();
    Set<Long> before = fs.processes().living();
    fs.faults().crashAt(k);
    assertThatThrownBy(() -> api.create("/vh", MACHINE)).isInstanceOf(FakeCrash.class);
    fs.faults().recover();

    ContainerApi next = ContainerApi.open(fs);
    if (next.exists("/vh")) {
      next.destroy("/vh"); // the crash came after the commit: a whole virtual host, destroyed whole
    } else {
      CleanupReport report = next.cleanup();
      assertThat(report.failures()).isEmpty();
    }
    assertThat(fs.processes().living()).isEqualTo(before);
    CgroupAssertions.assertThat(fs).matches(clean);
  }

  @ParameterizedTest(name = "fault at create step {0}: nothing left")
  @MethodSource("createSteps")
  void aFaultAtEveryStepOfCreateLeavesNoProcessAndNoCgroup(int k) {
    FakeSnapshot clean = fs.snapshot();
    Set<Long> before = fs.processes().living();
    fs.faults().failAt(k, Errno.EIO);

    assertThatLmctfyException(() -> api.create("/vh", MACHINE));

    assertThat(fs.processes().living()).isEqualTo(before);
    CgroupAssertions.assertThat(fs).matches(clean);
  }

  @Test
  void onAFakeWithV1FreezerAKilledFrozenVirtualHostEndsWhenThawed() throws Exception {
    FakeCgroupFs v1 = FakeCgroupFs.create(FakeLayout.HYBRID);
    ContainerApi hybrid = ContainerApi.open(v1);
    Container vh = hybrid.create("/vh", ContainerSpec.parse("virtual_host {}"));
    ContainerProcess p = vh.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
    vh.pause();

    vh.killAll();

    assertThat(p.waitFor()).isEqualTo(137);
    assertThat(vh.listProcesses(ListPolicy.RECURSIVE)).isEmpty();
  }
}
