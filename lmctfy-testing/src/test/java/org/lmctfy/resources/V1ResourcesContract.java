package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * Each spec field on cgroup v1, on the fake and on this machine's kernel: the file and value
 * written, what spec() reads back, and the error for a value out of range.
 */
abstract class V1ResourcesContract extends ApiOnScratch {
  V1ResourcesContract(ContractBackend backend) {
    super(backend);
  }

  /**
   * Creates /job with {@code spec}, checks spec() gives {@code readBack}, and returns the file's
   * content.
   */
  String createAndRead(String spec, String readBack, String controller, String file)
      throws IOException {
    Container job = api.create("/job", ContainerSpec.parse(spec));
    assertThat(job.spec()).as("spec() of %s", spec).isEqualTo(ContainerSpec.parse(readBack));
    Hierarchy h = fs.hierarchy(controller).orElseThrow();
    return fs.read(h, CgroupPath.of("/job").under(scratch.path()), file).strip();
  }

  LmctfyException refused(ErrorCode code, String spec) {
    LmctfyException e =
        assertThatLmctfyException(() -> api.create("/job", ContainerSpec.parse(spec)))
            .as(spec)
            .hasCode(code)
            .actual();
    assertThat(api.exists("/job")).isFalse();
    return e;
  }

  @Test
  void cpuLimitIsSharesAndReadsBack() throws IOException {
    assertThat(createAndRead("cpu { limit: 333 }", "cpu { limit: 333 }", "cpu", "cpu.shares"))
        .isEqualTo("340");
  }

  @Test
  void cpuLimitAboveTheKernelsMaximumIsInvalid() {
    assertThat(refused(ErrorCode.INVALID_ARGUMENT, "cpu { limit: 300000 }").getMessage())
        .contains("cpu.limit", "300000");
  }

  @Test
  void cpuMaxLimitIsAQuotaAndCanBeRemovedAgain() throws IOException {
    assertThat(
            createAndRead(
                "cpu { max_limit: 1500 }", "cpu { max_limit: 1500 }", "cpu", "cpu.cfs_quota_us"))
        .isEqualTo("150000");
    Container job = api.get("/job");
    job.update(ContainerSpec.parse("cpu { max_limit: -1 }"), UpdatePolicy.DIFF);
    assertThat(
            fs.read(
                    fs.hierarchy("cpu").orElseThrow(),
                    CgroupPath.of("/job").under(scratch.path()),
                    "cpu.cfs_quota_us")
                .strip())
        .isEqualTo("-1");
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse("cpu { max_limit: -1 }"));
  }

  @Test
  void aContainerAnotherToolMadeReportsTheFieldsWeUpdatedAndStaysTheirs() throws IOException {
    CgroupPath job = CgroupPath.of("/job").under(scratch.path());
    api.create("/job", ContainerSpec.parse("pids { limit: 10 }"));
    for (Hierarchy h :
        fs.hierarchies()) { // what another tool would have made: the cgroups, no markers
      if (fs.exists(h, job)) {
        for (String key : fs.markerKeys(h, job)) {
          fs.removeMarker(h, job, key);
        }
      }
    }
    Container theirs = api.get("/job");
    assertThat(theirs.spec()).isEqualTo(ContainerSpec.empty());
    theirs.update(ContainerSpec.parse("memory { limit: 104857600 }"), UpdatePolicy.DIFF);
    assertThat(theirs.spec()).isEqualTo(ContainerSpec.parse("memory { limit: 104857600 }"));
    for (Hierarchy h : fs.hierarchies()) {
      if (fs.exists(h, job)) {
        assertThat(fs.marker(h, job, "owner")).as("ownership stays with its maker").isEmpty();
      }
    }
    api.destroy("/job");
    assertThat(api.exists("/job")).isFalse();
  }

  @Test
  void cpuMaxLimitBelowTheSmallestQuotaIsInvalid() {
    assertThat(refused(ErrorCode.INVALID_ARGUMENT, "cpu { max_limit: 5 }").getMessage())
        .contains("cpu.max_limit", "5");
  }

  @Test
  void cpuMaskAndMemoryNodesAreTheCpuset() throws IOException {
    assertThat(
            createAndRead(
                "cpu { mask: \"0\" memory_nodes: \"0\" }",
                "cpu { mask: \"0\" memory_nodes: \"0\" }",
                "cpuset",
                "cpuset.cpus"))
        .isEqualTo("0");
  }

  @Test
  void aMaskOutsideTheParentsIsInvalid() {
    assertThat(refused(ErrorCode.INVALID_ARGUMENT, "cpu { mask: \"0-4095\" }").getMessage())
        .contains("cpu.mask");
  }

  @Test
  void aNewCpusetGetsItsParentsCpusSoProcessesCanEnter() throws IOException {
    api.create("/job", ContainerSpec.empty());
    Hierarchy cpuset = fs.hierarchy("cpuset").orElseThrow();
    assertThat(fs.read(cpuset, CgroupPath.of("/job").under(scratch.path()), "cpuset.cpus"))
        .isEqualTo(fs.read(cpuset, scratch.path(), "cpuset.cpus"));
  }

  @Test
  void memoryLimitsRoundToPagesAndUnlimitedReadsMinusOne() throws IOException {
    assertThat(
            createAndRead(
                "memory { limit: 1000000 swap_limit: -1 reservation: 500000 }",
                "memory { limit: 999424 swap_limit: -1 reservation: 499712 }",
                "memory",
                "memory.limit_in_bytes"))
        .isEqualTo("999424");
  }

  @Test
  void memoryPlusSwapIsWrittenInAnOrderTheKernelAcceptsWhenRaisedAndCut() throws IOException {
    Container job =
        api.create("/job", ContainerSpec.parse("memory { limit: 4096000 swap_limit: 8192000 }"));
    job.update(
        ContainerSpec.parse("memory { limit: 40960000 swap_limit: 81920000 }"), UpdatePolicy.DIFF);
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("memory { limit: 40960000 swap_limit: 81920000 }"));
    job.update(
        ContainerSpec.parse("memory { limit: 409600 swap_limit: 819200 }"), UpdatePolicy.DIFF);
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("memory { limit: 409600 swap_limit: 819200 }"));
  }

  @Test
  void memoryOomKillDisableAndSwappinessAreV1Knobs() throws IOException {
    assertThat(
            createAndRead(
                "memory { oom_kill_disable: true swappiness: 10 }",
                "memory { oom_kill_disable: true swappiness: 10 }",
                "memory",
                "memory.swappiness"))
        .isEqualTo("10");
  }

  @Test
  void memoryHighAndOomGroupHaveNoV1EquivalentAndSaySo() {
    assertThat(refused(ErrorCode.FAILED_PRECONDITION, "memory { high: 4096000 }").getMessage())
        .contains("memory.high");
    assertThat(refused(ErrorCode.FAILED_PRECONDITION, "memory { oom_group: true }").getMessage())
        .contains("memory.oom_group");
  }

  @Test
  void pidsLimitIsPidsMax() throws IOException {
    assertThat(createAndRead("pids { limit: 42 }", "pids { limit: 42 }", "pids", "pids.max"))
        .isEqualTo("42");
    api.get("/job").update(ContainerSpec.parse("pids { limit: -1 }"), UpdatePolicy.DIFF);
    assertThat(api.get("/job").spec()).isEqualTo(ContainerSpec.parse("pids { limit: -1 }"));
  }

  @Test
  void blockioWeightIsTheBfqWeightWhereBfqIsLoadedElseRefused() throws IOException {
    // BFQ is a module: loaded, this machine's blkio has blkio.bfq.weight (the fake copies that);
    // not
    // loaded (and no CFQ, gone since 5.0), a weight has no file and is refused before anything is
    // made
    Hierarchy blkio = fs.hierarchy("blkio").orElseThrow();
    if (fs.hasFile(blkio, scratch.path(), "blkio.bfq.weight")) {
      assertThat(
              createAndRead(
                  "blockio { weight: 300 }",
                  "blockio { weight: 300 }",
                  "blkio",
                  "blkio.bfq.weight"))
          .isEqualTo("300");
    } else {
      assertThat(fs.hasFile(blkio, scratch.path(), "blkio.weight")).isFalse();
      assertThat(refused(ErrorCode.FAILED_PRECONDITION, "blockio { weight: 300 }").getMessage())
          .contains("blockio.weight", "BFQ");
    }
  }

  @Test
  void deviceRulesAreAWhitelistReadBackFromDevicesList() throws IOException {
    String spec =
        "device { rules { permission: DENY type: ALL access: \"rwm\" } "
            + "rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: \"rw\" } "
            + "rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: \"m\" } }";
    String readBack =
        "device { rules { permission: DENY type: ALL access: \"rwm\" } "
            + "rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: \"rwm\" } }";
    assertThat(createAndRead(spec, readBack, "devices", "devices.list")).isEqualTo("c 1:3 rwm");
  }

  @Test
  void denyExceptionsToAllowAllAreInvalidBecauseTheKernelCannotReportThem() {
    assertThat(
            refused(
                    ErrorCode.INVALID_ARGUMENT,
                    "device { rules { permission: ALLOW type: ALL access: \"rwm\" } "
                        + "rules { permission: DENY type: CHAR major: 1 minor: 3 access: \"rwm\" } }")
                .getMessage())
        .contains("device.rules");
  }

  @Test
  void childrenLimitIsTheUnifiedHierarchysMaxDescendants() throws IOException {
    assertThat(
            createAndRead("children_limit: 3", "children_limit: 3", "", "cgroup.max.descendants"))
        .isEqualTo("3");
  }

  @Test
  void anUpdateThatHandsTheContainerToATenantKeepsItsSpecReadableByRootAndBack() {
    api.create("/job", ContainerSpec.parse("owner: 0"));
    api.get("/job")
        .update(ContainerSpec.parse("owner: 4321"), UpdatePolicy.DIFF); // the tenant owns it now
    assertThat(api.get("/job").spec()).isEqualTo(ContainerSpec.parse("owner: 4321"));
    api.get("/job").update(ContainerSpec.parse("owner: 0"), UpdatePolicy.DIFF); // root's again
    assertThat(api.get("/job").spec()).isEqualTo(ContainerSpec.parse("owner: 0"));
  }

  @Test
  void ownerChangesTheDirectoriesAndTheDelegateFiles() throws IOException {
    api.create("/job", ContainerSpec.parse("owner: 4321 owner_group: 4322"));
    assertThat(api.get("/job").spec())
        .isEqualTo(ContainerSpec.parse("owner: 4321 owner_group: 4322"));
    CgroupPath job = CgroupPath.of("/job").under(scratch.path());
    Hierarchy memory = fs.hierarchy("memory").orElseThrow();
    assertThat(fs.owner(memory, job, null)).isEqualTo(new Owner(4321, 4322));
    assertThat(fs.owner(memory, job, "cgroup.procs")).isEqualTo(new Owner(4321, 4322));
    assertThat(fs.owner(memory, job, "tasks")).isEqualTo(new Owner(4321, 4322));
    assertThat(fs.owner(memory, job, "memory.limit_in_bytes")).isEqualTo(new Owner(0, 0));
  }

  /**
   * The fields of issue 32 this host's v1 hierarchies cannot give: refused naming the field,
   * nothing made.
   */
  @Test
  void partitionUclampAndRdmaAreRefusedOnThisV1Host() {
    assertThat(
            refused(ErrorCode.FAILED_PRECONDITION, "cpu { mask: \"0\" partition: ROOT }")
                .getMessage())
        .contains("cpu.partition", "v1");
    assertThat(refused(ErrorCode.FAILED_PRECONDITION, "cpu { uclamp_min: 10 }").getMessage())
        .contains("cpu.uclamp_min", "cpu.uclamp.min");
    assertThat(
            refused(
                    ErrorCode.FAILED_PRECONDITION,
                    "rdma { limits { device: \"mlx4_0\" hca_handle: 1 } }")
                .getMessage())
        .contains("rdma");
  }

  @Test
  void networkAndMonitoringNeedHierarchiesThisHostLacks() {
    assertThat(refused(ErrorCode.FAILED_PRECONDITION, "network { classid: 1048577 }").getMessage())
        .contains("network.classid", "net_cls");
  }

  @Test
  void replaceResetsOmittedFieldsAndDiffKeepsThem() throws IOException {
    Container job =
        api.create(
            "/job",
            ContainerSpec.parse("cpu { limit: 500 } memory { limit: 409600 } pids { limit: 9 }"));
    job.update(ContainerSpec.parse("pids { limit: 10 }"), UpdatePolicy.DIFF);
    assertThat(job.spec())
        .isEqualTo(
            ContainerSpec.parse("cpu { limit: 500 } memory { limit: 409600 } pids { limit: 10 }"));
    job.update(ContainerSpec.parse("memory { limit: 819200 }"), UpdatePolicy.REPLACE);
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse("memory { limit: 819200 }"));
    CgroupPath p = CgroupPath.of("/job").under(scratch.path());
    assertThat(fs.read(fs.hierarchy("cpu").orElseThrow(), p, "cpu.shares").strip())
        .isEqualTo("1024");
    assertThat(fs.read(fs.hierarchy("pids").orElseThrow(), p, "pids.max").strip()).isEqualTo("max");
  }

  @Test
  void aRefusedUpdateChangesNothing() throws IOException {
    Container job =
        api.create("/job", ContainerSpec.parse("memory { limit: 409600 swap_limit: 819200 }"));
    LmctfyException e =
        assertThatLmctfyException(
                () ->
                    job.update(ContainerSpec.parse("memory { limit: 8192000 }"), UpdatePolicy.DIFF))
            .hasCode(ErrorCode.INVALID_ARGUMENT)
            .actual();
    assertThat(e.getMessage()).contains("memory.limit", "swap_limit");
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("memory { limit: 409600 swap_limit: 819200 }"));
  }
}
