package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.Proves;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeOperation;
import org.lmctfy.testing.FakeSnapshot;

/**
 * Each spec field on cgroup v2, on the fake's v2 layout only: this project's machines offer no v2
 * controller but hugetlb below their unified root, so this is modelled from cgroup-v2.rst.
 */
class FakeV2ResourcesTest {
  final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
  final ContainerApi api = ContainerApi.open(fs);
  final Hierarchy unified = fs.hierarchies().get(0);

  String createAndRead(String spec, String readBack, String file) throws IOException {
    Container job = api.create("/job", ContainerSpec.parse(spec));
    assertThat(job.spec()).as("spec() of %s", spec).isEqualTo(ContainerSpec.parse(readBack));
    return fs.read(unified, CgroupPath.of("/job"), file).strip();
  }

  LmctfyException refused(ErrorCode code, String spec) {
    LmctfyException e =
        assertThatLmctfyException(() -> api.create("/job", ContainerSpec.parse(spec)))
            .hasCode(code)
            .actual();
    CgroupAssertions.assertThat(fs).hasNoContainer("/job");
    return e;
  }

  @Test
  void cpuLimitIsAWeightOnRuncsCurveWithOneCpuAtTheDefault() throws IOException {
    assertThat(createAndRead("cpu { limit: 1000 }", "cpu { limit: 1000 }", "cpu.weight"))
        .isEqualTo("100");
    assertThat(api.normalise(ContainerSpec.parse("cpu { limit: 1000 }")))
        .isEqualTo(api.get("/job").spec());
  }

  @Test
  void cpuMaxLimitIsCpuMax() throws IOException {
    assertThat(createAndRead("cpu { max_limit: 2500 }", "cpu { max_limit: 2500 }", "cpu.max"))
        .isEqualTo("250000 100000");
  }

  @Test
  void memoryLimitSwapAndReservationAreMaxSwapMaxAndLow() throws IOException {
    assertThat(
            createAndRead(
                "memory { limit: 8192000 swap_limit: 16384000 reservation: 4096000 high: 6144000 }",
                "memory { limit: 8192000 swap_limit: 16384000 reservation: 4096000 high: 6144000 }",
                "memory.swap.max"))
        .isEqualTo("8192000");
    assertThat(fs.read(unified, CgroupPath.of("/job"), "memory.max").strip()).isEqualTo("8192000");
    assertThat(fs.read(unified, CgroupPath.of("/job"), "memory.low").strip()).isEqualTo("4096000");
  }

  @Test
  void unlimitedMemoryIsMaxAndReadsMinusOne() throws IOException {
    assertThat(
            createAndRead(
                "memory { limit: -1 oom_group: true }",
                "memory { limit: -1 oom_group: true }",
                "memory.max"))
        .isEqualTo("max");
  }

  @Test
  void pidsAndChildrenLimit() throws IOException {
    assertThat(
            createAndRead(
                "pids { limit: 7 } children_limit: 2",
                "pids { limit: 7 } children_limit: 2",
                "cgroup.max.descendants"))
        .isEqualTo("2");
  }

  @Test
  @Proves("blockio.weight")
  @Proves("blockio.device_limits")
  void blockioWeightAndDeviceLimitsAreIoWeightAndIoMax() throws IOException {
    assertThat(
            createAndRead(
                "blockio { weight: 500 device_limits { major: 254 minor: 0 read_bps: 1048576 } }",
                "blockio { weight: 500 device_limits { major: 254 minor: 0 read_bps: 1048576 write_bps: -1 read_iops: -1 "
                    + "write_iops: -1 } }",
                "io.max"))
        .isEqualTo("254:0 rbps=1048576 wbps=max riops=max wiops=max");
    assertThat(fs.read(unified, CgroupPath.of("/job"), "io.weight")).startsWith("default 4950");
  }

  @Test
  void hugetlbLimitsArePerPageSize() throws IOException {
    assertThat(
            createAndRead(
                "hugetlb { limits { page_size: \"2MB\" limit: 4194304 } }",
                "hugetlb { limits { page_size: \"2MB\" limit: 4194304 } }",
                "hugetlb.2MB.max"))
        .isEqualTo("4194304");
  }

  /** A machine whose root has not enabled iocost on the device: said before anything is written. */
  @Test
  @Proves(value = "blockio.device_weights", refusal = "FAILED_PRECONDITION")
  void perDeviceWeightsWithoutIocostOnTheDeviceAreFailedPreconditionNamingIt() {
    String spec = "blockio { weight: 500 device_weights { major: 254 minor: 0 weight: 1000 } }";
    assertThat(refused(ErrorCode.FAILED_PRECONDITION, spec).getMessage())
        .contains("blockio.device_weights", "io.cost.qos", "254:0");
  }

  /** A kernel with io.latency (Debian's are built without it: KernelV2ResourcesTest). */
  @Test
  @Proves("blockio.latency_targets")
  void latencyTargetsAreIoLatencyLinesAndReplaceRemovesThem() throws IOException {
    String spec = "blockio { latency_targets { major: 254 minor: 0 target_us: 5000 } }";
    assertThat(createAndRead(spec, spec, "io.latency")).isEqualTo("254:0 target=5000");
    api.get("/job")
        .update(ContainerSpec.parse("pids { limit: 5 }"), org.lmctfy.UpdatePolicy.REPLACE);
    assertThat(fs.read(unified, CgroupPath.of("/job"), "io.latency").strip()).isEmpty();
  }

  @Test
  @Proves("blockio.device_weights")
  void perDeviceWeightsAreIoWeightLinesOnceTheRootEnablesIocost() throws IOException {
    fs.write(unified, CgroupPath.root(), "io.cost.qos", "254:0 enable=1");
    assertThat(
            createAndRead(
                "blockio { weight: 500 device_weights { major: 254 minor: 0 weight: 1000 } }",
                "blockio { weight: 500 device_weights { major: 254 minor: 0 weight: 1000 } }",
                "io.weight"))
        .isEqualTo("default 4950\n254:0 10000");
    api.get("/job")
        .update(ContainerSpec.parse("blockio { weight: 500 }"), org.lmctfy.UpdatePolicy.REPLACE);
    assertThat(fs.read(unified, CgroupPath.of("/job"), "io.weight").strip())
        .isEqualTo("default 4950");
  }

  @Test
  void hugetlbReservedLimitsAreRsvdMax() throws IOException {
    assertThat(
            createAndRead(
                "hugetlb { limits { page_size: \"2MB\" limit: 4194304 reserved_limit: 2097152 } }",
                "hugetlb { limits { page_size: \"2MB\" limit: 4194304 reserved_limit: 2097152 } }",
                "hugetlb.2MB.rsvd.max"))
        .isEqualTo("2097152");
    api.get("/job")
        .update(
            ContainerSpec.parse("hugetlb { limits { page_size: \"2MB\" limit: 4194304 } }"),
            org.lmctfy.UpdatePolicy.REPLACE);
    assertThat(fs.read(unified, CgroupPath.of("/job"), "hugetlb.2MB.rsvd.max").strip())
        .isEqualTo("max");
  }

  @Test
  @Proves(value = "misc.limits", refusal = "INVALID_ARGUMENT")
  void miscLimitsOfAResourceTheMachineLacksAreRefusedByTheKernelAndChangeNothing() {
    FakeSnapshot before = fs.snapshot();
    LmctfyException e =
        refused(ErrorCode.INVALID_ARGUMENT, "misc { limits { resource: \"sev\" limit: 1 } }");
    assertThat(e.getMessage()).contains("misc.max", "EINVAL");
    CgroupAssertions.assertThat(fs).matches(before);
  }

  /**
   * A machine with misc resources (AMD SEV here): misc.max lines, read back, a list replaced whole.
   */
  @Test
  @Proves("misc.limits")
  void miscLimitsAreMiscMaxLinesOnAMachineWithTheResources() throws IOException {
    FakeCgroupFs sev =
        FakeCgroupFs.builder()
            .layout(FakeLayout.V2)
            .miscCapacity(java.util.Map.of("sev", 16L, "sev_es", 4L))
            .build();
    Container job =
        ContainerApi.open(sev)
            .create(
                "/job",
                ContainerSpec.parse(
                    "misc { limits { resource: \"sev\" limit: 4 } limits { resource: \"sev_es\" limit: -1 } }"));
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("misc { limits { resource: \"sev\" limit: 4 } }"));
    assertThat(sev.read(unified, CgroupPath.of("/job"), "misc.max"))
        .isEqualTo("sev 4\nsev_es max\n");
    job.update(
        ContainerSpec.parse("misc { limits { resource: \"sev_es\" limit: 1 } }"),
        org.lmctfy.UpdatePolicy.DIFF);
    assertThat(sev.read(unified, CgroupPath.of("/job"), "misc.max"))
        .isEqualTo("sev max\nsev_es 1\n");
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("misc { limits { resource: \"sev_es\" limit: 1 } }"));
  }

  /**
   * A machine with RDMA devices: rdma.max lines, both resources written, read back, a list replaced
   * whole.
   */
  @Test
  @Proves("rdma.limits")
  void rdmaLimitsAreRdmaMaxLinesOnAMachineWithTheDevices() throws IOException {
    FakeCgroupFs ib =
        FakeCgroupFs.builder()
            .layout(FakeLayout.V2)
            .rdmaDevices(java.util.List.of("mlx4_0", "mlx5_1"))
            .build();
    Container job =
        ContainerApi.open(ib)
            .create(
                "/job",
                ContainerSpec.parse(
                    "rdma { limits { device: \"mlx4_0\" "
                        + "hca_handle: 2 hca_object: 2000 } limits { device: \"mlx5_1\" hca_object: 10 } }"));
    assertThat(ib.read(unified, CgroupPath.of("/job"), "rdma.max"))
        .isEqualTo("mlx4_0 hca_handle=2 hca_object=2000\nmlx5_1 hca_handle=max hca_object=10\n");
    assertThat(job.spec())
        .isEqualTo(
            ContainerSpec.parse(
                "rdma { limits { device: \"mlx4_0\" hca_handle: 2 "
                    + "hca_object: 2000 } limits { device: \"mlx5_1\" hca_handle: -1 hca_object: 10 } }"));
    job.update(
        ContainerSpec.parse("rdma { limits { device: \"mlx5_1\" hca_handle: 1 } }"),
        org.lmctfy.UpdatePolicy.DIFF);
    assertThat(ib.read(unified, CgroupPath.of("/job"), "rdma.max"))
        .isEqualTo("mlx4_0 hca_handle=max hca_object=max\nmlx5_1 hca_handle=1 hca_object=max\n");
    assertThatLmctfyException(
            () -> ContainerSpec.parse("rdma { limits { device: \"mlx4_0\" hca_handle: -2 } }"))
        .hasCode(ErrorCode.INVALID_ARGUMENT);
  }

  /**
   * A kernel built with CONFIG_UCLAMP_TASK_GROUP (not Debian's): percentages with two decimals, 100
   * is max.
   */
  @Test
  @Proves("cpu.uclamp_min, cpu.uclamp_max")
  void uclampIsCpuUclampMinAndMaxInPercentWithTwoDecimals() throws IOException {
    assertThat(
            createAndRead(
                "cpu { uclamp_min: 12.5 uclamp_max: 80 }",
                "cpu { uclamp_min: 12.5 uclamp_max: 80 }",
                "cpu.uclamp.min"))
        .isEqualTo("12.50");
    assertThat(fs.read(unified, CgroupPath.of("/job"), "cpu.uclamp.max").strip())
        .isEqualTo("80.00");
    Container job = api.get("/job");
    LmctfyException above =
        assertThatLmctfyException(
                () ->
                    job.update(
                        ContainerSpec.parse("cpu { uclamp_min: 90 }"),
                        org.lmctfy.UpdatePolicy.DIFF))
            .hasCode(ErrorCode.INVALID_ARGUMENT)
            .actual();
    assertThat(above.getMessage()).contains("cpu.uclamp_min", "80.0");
    job.update(ContainerSpec.parse("cpu { uclamp_max: 100 }"), org.lmctfy.UpdatePolicy.DIFF);
    assertThat(fs.read(unified, CgroupPath.of("/job"), "cpu.uclamp.max").strip()).isEqualTo("max");
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("cpu { uclamp_min: 12.5 uclamp_max: 100 }"));
    job.update(ContainerSpec.parse("pids { limit: 5 }"), org.lmctfy.UpdatePolicy.REPLACE);
    assertThat(fs.read(unified, CgroupPath.of("/job"), "cpu.uclamp.min").strip()).isEqualTo("0.00");
    assertThatLmctfyException(() -> ContainerSpec.parse("cpu { uclamp_min: 12.345 }"))
        .hasMessageContainingAll("cpu.uclamp_min", "two decimals");
    assertThatLmctfyException(() -> ContainerSpec.parse("cpu { uclamp_min: 50 uclamp_max: 40 }"))
        .hasMessageContainingAll("cpu.uclamp_min", "cpu.uclamp_max");
  }

  /**
   * A kernel built without zswap: a top-level container (no ancestor below the root tells) finds
   * out by the write's ENOENT, one below a container with memory before anything is made; both
   * FAILED_PRECONDITION naming the field, nothing changed.
   */
  @Test
  @Proves(value = "memory.zswap_limit", refusal = "FAILED_PRECONDITION")
  void aFileThisKernelLacksIsFailedPreconditionNamingTheFieldAndChangesNothing() {
    FakeCgroupFs noZswap =
        FakeCgroupFs.builder()
            .layout(FakeLayout.V2)
            .withoutFiles(java.util.Set.of("memory.zswap.max"))
            .build();
    ContainerApi onIt = ContainerApi.open(noZswap);
    FakeSnapshot before = noZswap.snapshot();
    LmctfyException top =
        assertThatLmctfyException(
                () -> onIt.create("/job", ContainerSpec.parse("memory { zswap_limit: 8192000 }")))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(top.getMessage())
        .contains("memory.zswap_limit", "memory.zswap.max", "built without zswap", "ENOENT");
    CgroupAssertions.assertThat(noZswap).matches(before);
    onIt.create("/a", ContainerSpec.parse("memory { limit: 8192000 }"));
    LmctfyException below =
        assertThatLmctfyException(
                () -> onIt.create("/a/b", ContainerSpec.parse("memory { zswap_limit: 4096000 }")))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(below.getMessage()).contains("memory.zswap_limit", "zswap");
    assertThat(onIt.exists("/a/b")).isFalse();
  }

  /**
   * An ENOENT of a file the kernel has (the controller went and came back meanwhile) is the
   * kernel's, as it is.
   */
  @Test
  void anEnoentOfAFileTheKernelHasStaysTheKernels() {
    fs.faults()
        .failWhen(
            op -> op.kind() == FakeOperation.Kind.WRITE && "memory.zswap.max".equals(op.file()),
            Errno.ENOENT);
    LmctfyException e = refused(ErrorCode.NOT_FOUND, "memory { zswap_limit: 8192000 }");
    assertThat(e.getMessage()).contains("memory.zswap.max", "ENOENT");
  }

  @Test
  @Proves("Container.reclaim")
  void reclaimTakesTheBytesOffTheUsageAndSaysWhenTheKernelCouldNot() throws IOException {
    Container job = api.create("/job", ContainerSpec.parse("memory { limit: 134217728 }"));
    fs.kernel().setValue(unified, CgroupPath.of("/job"), "memory.current", "67108864\n");
    job.reclaim(16L << 20);
    assertThat(fs.read(unified, CgroupPath.of("/job"), "memory.current").strip())
        .isEqualTo("50331648");
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse("memory { limit: 134217728 }"));
    LmctfyException e =
        assertThatLmctfyException(() -> job.reclaim(1L << 30))
            .hasCode(ErrorCode.UNAVAILABLE)
            .actual();
    assertThat(e.getMessage()).contains("/job", "1073741824", "memory.current", "EAGAIN");
  }

  @Test
  @Proves(value = "Container.reclaim", refusal = "FAILED_PRECONDITION")
  void reclaimIsRefusedWithoutAMemoryControllerOnV1AndForNoBytes() {
    api.create("/a", ContainerSpec.empty());
    Container b = api.create("/a/b", ContainerSpec.parse("pids { limit: 5 }"));
    LmctfyException e =
        assertThatLmctfyException(() -> b.reclaim(4096))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage()).contains("/a/b", "memory");
    assertThatLmctfyException(() -> b.reclaim(0)).hasCode(ErrorCode.INVALID_ARGUMENT);
    Container v1 =
        ContainerApi.open(FakeCgroupFs.create(FakeLayout.V1))
            .create("/job", ContainerSpec.parse("memory { limit: 134217728 }"));
    LmctfyException onV1 =
        assertThatLmctfyException(() -> v1.reclaim(4096))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(onV1.getMessage()).contains("reclaim", "v1");
  }

  @Test
  void aFailedWriteAfterEnablingAControllerDisablesItAgain() throws IOException {
    api.create("/a", ContainerSpec.empty());
    org.lmctfy.Container b = api.create("/a/b", ContainerSpec.empty());
    FakeSnapshot before = fs.snapshot();
    fs.faults()
        .failWhen(
            op -> op.kind() == FakeOperation.Kind.WRITE && "pids.max".equals(op.file()),
            Errno.EINVAL);
    assertThatLmctfyException(
            () ->
                b.update(
                    ContainerSpec.parse("memory { limit: 4096000 } pids { limit: 5 }"),
                    org.lmctfy.UpdatePolicy.DIFF))
        .hasCode(ErrorCode.INVALID_ARGUMENT);
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void aChildsControllersAreEnabledInItsParentAndRestoredIfTheCreateFails() throws IOException {
    api.create("/a", ContainerSpec.parse("memory { limit: 81920000 }"));
    assertThat(fs.read(unified, CgroupPath.of("/a"), "cgroup.subtree_control").strip()).isEmpty();
    FakeSnapshot before = fs.snapshot();
    fs.faults()
        .failWhen(
            op ->
                op.kind() == FakeOperation.Kind.WRITE
                    && "memory.max".equals(op.file())
                    && op.path().value().equals("/a/b"),
            Errno.EINVAL);
    assertThatLmctfyException(
            () -> api.create("/a/b", ContainerSpec.parse("memory { limit: 4096000 }")))
        .hasCode(ErrorCode.INVALID_ARGUMENT);
    CgroupAssertions.assertThat(fs).matches(before);
    api.create("/a/b", ContainerSpec.parse("memory { limit: 4096000 }"));
    assertThat(fs.read(unified, CgroupPath.of("/a"), "cgroup.subtree_control").strip())
        .isEqualTo("memory");
  }

  @Test
  void aGrandchildsControllerIsEnabledThroughEveryAncestorAndAllIsUndoneOnFailure()
      throws IOException {
    api.create("/a", ContainerSpec.empty());
    api.create("/a/b", ContainerSpec.empty());
    FakeSnapshot before = fs.snapshot();
    fs.faults()
        .failWhen(
            op -> op.kind() == FakeOperation.Kind.WRITE && "pids.max".equals(op.file()),
            Errno.EINVAL);
    assertThatLmctfyException(() -> api.create("/a/b/c", ContainerSpec.parse("pids { limit: 5 }")))
        .hasCode(ErrorCode.INVALID_ARGUMENT);
    CgroupAssertions.assertThat(fs).matches(before);
    api.create("/a/b/c", ContainerSpec.parse("pids { limit: 5 }"));
    assertThat(fs.read(unified, CgroupPath.of("/a"), "cgroup.subtree_control").strip())
        .isEqualTo("pids");
    assertThat(fs.read(unified, CgroupPath.of("/a/b"), "cgroup.subtree_control").strip())
        .isEqualTo("pids");
    assertThat(api.get("/a/b/c").spec()).isEqualTo(ContainerSpec.parse("pids { limit: 5 }"));
  }
}
