package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.support.Proves;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * Spec fields on pure cgroup v2 with cpu, cpuset, io, memory and pids enabled down to the API's
 * root, on the fake and on a v2 kernel (the {@code v2} guest of .ci/kernel-vm): the file and value
 * written, what spec() reads back, updates that bring a controller, REPLACE of a container that
 * lacks some, and the conversions (cpu weight, swap).
 */
abstract class V2ResourcesContract extends ApiOnScratch {
  private final ContractBackend backend;

  V2ResourcesContract(ContractBackend backend) {
    super(backend);
    this.backend = backend;
  }

  Hierarchy unified() {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2)
        .findFirst()
        .orElseThrow();
  }

  CgroupPath path(String container) {
    return CgroupPath.of(container).under(scratch.path());
  }

  String file(String container, String file) throws IOException {
    return fs.read(unified(), path(container), file).strip();
  }

  boolean hasFile(String container, String file) throws IOException {
    return fs.hasFile(unified(), path(container), file);
  }

  /**
   * Creates /job with {@code spec}, checks spec() gives {@code readBack}, and returns the file's
   * content.
   */
  String createAndRead(String spec, String readBack, String file) throws IOException {
    Container job = api.create("/job", ContainerSpec.parse(spec));
    assertThat(job.spec()).as("spec() of %s", spec).isEqualTo(ContainerSpec.parse(readBack));
    assertThat(api.normalise(ContainerSpec.parse(spec)))
        .as("normalise(%s)", spec)
        .isEqualTo(job.spec());
    return file("/job", file);
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

  // --- the bugs of issue 19 and 18 ------------------------------------------------------------

  @Test
  @Proves("memory.limit")
  @Proves("pids.limit")
  void anUpdateThatBringsANewControllerEnablesItBeforeReadingTheOldValues() throws IOException {
    api.create("/a", ContainerSpec.empty());
    Container b = api.create("/a/b", ContainerSpec.empty());
    b.update(
        ContainerSpec.parse("memory { limit: 104857600 } pids { limit: 20 }"), UpdatePolicy.DIFF);
    assertThat(file("/a/b", "memory.max")).isEqualTo("104857600");
    assertThat(file("/a/b", "pids.max")).isEqualTo("20");
    assertThat(file("/a", "cgroup.subtree_control").split(" ")).contains("memory", "pids");
    assertThat(b.spec())
        .isEqualTo(ContainerSpec.parse("memory { limit: 104857600 } pids { limit: 20 }"));
  }

  @Test
  void anUpdateThatBroughtAControllerAndFailedDisablesItAgain() throws IOException {
    api.create("/a", ContainerSpec.empty());
    Container b = api.create("/a/b", ContainerSpec.empty());
    String before = file("/a", "cgroup.subtree_control");
    LmctfyException e =
        catchThrowableOfType(
            LmctfyException.class,
            () ->
                b.update(
                    ContainerSpec.parse(
                        "memory { limit: 104857600 } blockio { device_limits { major: 259 minor: 999 read_bps: 1048576 } }"),
                    UpdatePolicy.DIFF));
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("io.max", "ENODEV");
    assertThat(file("/a", "cgroup.subtree_control")).isEqualTo(before);
    assertThat(hasFile("/a/b", "memory.max")).isFalse();
    assertThat(b.spec()).isEqualTo(ContainerSpec.empty());
  }

  @Test
  void replaceOnAContainerWithoutIoResetsWhatItHasAndLeavesTheRest() throws IOException {
    api.create("/a", ContainerSpec.parse("cpu { limit: 2000 } memory { limit: 209715200 }"));
    Container b =
        api.create(
            "/a/b",
            ContainerSpec.parse("cpu { limit: 500 max_limit: 1000 } memory { limit: 104857600 }"));
    assertThat(hasFile("/a/b", "io.max")).isFalse();
    b.update(ContainerSpec.parse("memory { limit: 83886080 }"), UpdatePolicy.REPLACE);
    assertThat(file("/a/b", "memory.max")).isEqualTo("83886080");
    assertThat(file("/a/b", "cpu.weight")).isEqualTo("100");
    assertThat(file("/a/b", "cpu.max")).isEqualTo("max 100000");
    assertThat(hasFile("/a/b", "io.max")).isFalse();
    assertThat(b.spec()).isEqualTo(ContainerSpec.parse("memory { limit: 83886080 }"));
  }

  @Test
  @Proves("cpu.mask")
  @Proves("cpu.memory_nodes")
  void replaceWithoutAMaskClearsTheCpusetTheKernelWay() throws IOException {
    Container job =
        api.create("/job", ContainerSpec.parse("cpu { mask: \"0\" memory_nodes: \"0\" }"));
    assertThat(file("/job", "cpuset.cpus")).isEqualTo("0");
    job.update(ContainerSpec.parse("pids { limit: 9 }"), UpdatePolicy.REPLACE);
    assertThat(file("/job", "cpuset.cpus")).isEmpty();
    assertThat(file("/job", "cpuset.mems")).isEmpty();
    assertThat(file("/job", "cpuset.cpus.effective"))
        .isEqualTo(fs.read(unified(), scratch.path(), "cpuset.cpus.effective").strip());
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse("pids { limit: 9 }"));
  }

  @Test
  void swapWithoutAFiniteMemoryLimitIsInvalidNamingBothFields() throws IOException {
    assertThat(refused(ErrorCode.INVALID_ARGUMENT, "memory { swap_limit: 104857600 }").getMessage())
        .contains("memory.swap_limit", "memory.limit");
    Container job = api.create("/job", ContainerSpec.parse("memory { reservation: 4096000 }"));
    LmctfyException e =
        assertThatLmctfyException(
                () ->
                    job.update(
                        ContainerSpec.parse("memory { swap_limit: 104857600 }"), UpdatePolicy.DIFF))
            .hasCode(ErrorCode.INVALID_ARGUMENT)
            .actual();
    assertThat(e.getMessage()).contains("memory.swap_limit", "memory.limit");
    assertThat(file("/job", "memory.swap.max")).isEqualTo("max");
  }

  @Test
  @Proves("memory.swap_limit")
  void aSwapOnlyDiffKeepsTheMemoryLimitAndMeansMemoryPlusSwap() throws IOException {
    Container job =
        api.create(
            "/job", ContainerSpec.parse("memory { limit: 104857600 swap_limit: 209715200 }"));
    assertThat(file("/job", "memory.swap.max")).isEqualTo("104857600");
    job.update(ContainerSpec.parse("memory { swap_limit: 314572800 }"), UpdatePolicy.DIFF);
    assertThat(file("/job", "memory.max")).isEqualTo("104857600");
    assertThat(file("/job", "memory.swap.max")).isEqualTo("209715200");
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("memory { limit: 104857600 swap_limit: 314572800 }"));
  }

  @Test
  @Proves("memory.limit")
  @Proves("memory.swap_limit")
  void aLimitOnlyDiffKeepsMemoryPlusSwapAndRefusesALimitAboveIt() throws IOException {
    Container job =
        api.create(
            "/job", ContainerSpec.parse("memory { limit: 104857600 swap_limit: 209715200 }"));
    job.update(ContainerSpec.parse("memory { limit: 157286400 }"), UpdatePolicy.DIFF);
    assertThat(file("/job", "memory.swap.max")).isEqualTo("52428800");
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("memory { limit: 157286400 swap_limit: 209715200 }"));
    LmctfyException e =
        assertThatLmctfyException(
                () ->
                    job.update(
                        ContainerSpec.parse("memory { limit: 314572800 }"), UpdatePolicy.DIFF))
            .hasCode(ErrorCode.INVALID_ARGUMENT)
            .actual();
    assertThat(e.getMessage()).contains("memory.limit", "swap_limit");
    assertThat(file("/job", "memory.max")).isEqualTo("157286400");
  }

  @Test
  @Proves("cpu.limit")
  void oneCpusWorthOfSharesIsTheDefaultWeightAndEveryRoundLimitReadsBackUnchanged()
      throws IOException {
    assertThat(createAndRead("cpu { limit: 1000 }", "cpu { limit: 1000 }", "cpu.weight"))
        .isEqualTo("100");
    api.destroy("/job");
    assertThat(createAndRead("cpu { limit: 500 }", "cpu { limit: 500 }", "cpu.weight"))
        .isEqualTo("59");
    api.destroy("/job");
    assertThat(createAndRead("cpu { limit: 256000 }", "cpu { limit: 256000 }", "cpu.weight"))
        .isEqualTo("10000");
    api.destroy("/job");
    assertThat(createAndRead("cpu { limit: 0 }", "cpu { limit: 0 }", "cpu.weight")).isEqualTo("1");
    for (long limit : new long[] {100, 250, 750, 1500, 2000, 2500, 4000, 8000, 16000, 64000}) {
      api.destroy("/job");
      createAndRead("cpu { limit: " + limit + " }", "cpu { limit: " + limit + " }", "cpu.weight");
    }
  }

  @Test
  void replaceResetsTheWeightToTheKernelsDefault() throws IOException {
    Container job = api.create("/job", ContainerSpec.parse("cpu { limit: 4000 }"));
    job.update(ContainerSpec.parse("memory { limit: 104857600 }"), UpdatePolicy.REPLACE);
    assertThat(file("/job", "cpu.weight")).isEqualTo("100");
  }

  @Test
  void anUpdateOfAControllerItsParentCannotEnableIsFailedPreconditionNamingBoth()
      throws IOException {
    api.create("/a", ContainerSpec.empty());
    Container b = api.create("/a/b", ContainerSpec.empty());
    long pid = backend.startProcess(fs);
    try {
      fs.write(unified(), path("/a"), "cgroup.procs", Long.toString(pid));
      LmctfyException e =
          assertThatLmctfyException(
                  () ->
                      b.update(
                          ContainerSpec.parse("memory { limit: 104857600 }"), UpdatePolicy.DIFF))
              .hasCode(ErrorCode.FAILED_PRECONDITION)
              .actual();
      assertThat(e.getMessage()).contains("memory", path("/a").value(), "EBUSY");
      assertThat(file("/a", "cgroup.subtree_control")).isEmpty();
    } finally {
      backend.stopProcess(fs, pid);
    }
  }

  // --- the bugs of issue 32 -------------------------------------------------------------------

  /**
   * A parent that did not isolate cpuset has no cpuset files (its own parent does not enable the
   * controller for it); the mask is checked against its nearest ancestor's effective cpus (the
   * parent's own), and the create enables cpuset down to the parent.
   */
  @Test
  @Proves("cpu.mask")
  @Proves("cpu.memory_nodes")
  void aMaskBelowAParentThatDidNotIsolateCpusetIsWrittenAndABadOneIsInvalidNamingCpuMask()
      throws IOException {
    api.create("/a", ContainerSpec.parse("memory { limit: 104857600 }"));
    assertThat(hasFile("/a", "cpuset.cpus.effective")).isFalse();
    Container b =
        api.create("/a/b", ContainerSpec.parse("cpu { mask: \"0\" memory_nodes: \"0\" }"));
    assertThat(file("/a/b", "cpuset.cpus")).isEqualTo("0");
    assertThat(file("/a/b", "cpuset.cpus.effective")).isEqualTo("0");
    assertThat(file("/a/b", "cpuset.mems")).isEqualTo("0");
    assertThat(b.spec()).isEqualTo(ContainerSpec.parse("cpu { mask: \"0\" memory_nodes: \"0\" }"));
    LmctfyException e =
        assertThatLmctfyException(
                () -> api.create("/a/c", ContainerSpec.parse("cpu { mask: \"0-1023\" }")))
            .hasCode(ErrorCode.INVALID_ARGUMENT)
            .actual();
    assertThat(e.getMessage()).contains("cpu.mask", "0-1023", "cpuset.cpus.effective");
    assertThat(api.exists("/a/c")).isFalse();
  }

  // --- the v2 settings ------------------------------------------------------------------------

  @Test
  @Proves("memory.min")
  void memoryMinIsMemoryMin() throws IOException {
    assertThat(
            createAndRead(
                "memory { min: 8192000 limit: 104857600 }",
                "memory { min: 8192000 limit: 104857600 }",
                "memory.min"))
        .isEqualTo("8192000");
  }

  @Test
  @Proves("memory.zswap_limit")
  void zswapLimitIsMemoryZswapMax() throws IOException {
    assertThat(
            createAndRead(
                "memory { zswap_limit: 8192000 }",
                "memory { zswap_limit: 8192000 }",
                "memory.zswap.max"))
        .isEqualTo("8192000");
    api.get("/job")
        .update(ContainerSpec.parse("memory { limit: 104857600 }"), UpdatePolicy.REPLACE);
    assertThat(file("/job", "memory.zswap.max")).isEqualTo("max");
  }

  @Test
  @Proves("cpu.max_limit, cpu.period_us")
  @Proves("cpu.burst_us")
  void cpuPeriodAndBurstAreCpuMaxAndCpuMaxBurst() throws IOException {
    assertThat(
            createAndRead(
                "cpu { max_limit: 1500 period_us: 50000 burst_us: 20000 }",
                "cpu { max_limit: 1500 period_us: 50000 burst_us: 20000 }",
                "cpu.max"))
        .isEqualTo("75000 50000");
    assertThat(file("/job", "cpu.max.burst")).isEqualTo("20000");
    Container job = api.get("/job");
    job.update(
        ContainerSpec.parse("cpu { max_limit: 1000 }"), UpdatePolicy.DIFF); // keeps the period
    assertThat(file("/job", "cpu.max")).isEqualTo("50000 50000");
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("cpu { max_limit: 1000 period_us: 50000 burst_us: 20000 }"));
    refusedUpdate(
        job, "cpu { max_limit: 200 }", ErrorCode.INVALID_ARGUMENT); // 10000 µs, below the burst
    assertThat(file("/job", "cpu.max")).isEqualTo("50000 50000");
  }

  @Test
  void aBurstAboveTheQuotaIsInvalid() {
    assertThat(
            refused(ErrorCode.INVALID_ARGUMENT, "cpu { max_limit: 100 burst_us: 20000 }")
                .getMessage())
        .contains("cpu.burst_us", "20000");
  }

  @Test
  @Proves("cpu.idle")
  void cpuIdleIsCpuIdleAndReplaceClearsIt() throws IOException {
    assertThat(createAndRead("cpu { idle: true }", "cpu { idle: true }", "cpu.idle"))
        .isEqualTo("1");
    api.get("/job").update(ContainerSpec.parse("cpu { limit: 2000 }"), UpdatePolicy.REPLACE);
    assertThat(file("/job", "cpu.idle")).isEqualTo("0");
    assertThat(api.get("/job").spec()).isEqualTo(ContainerSpec.parse("cpu { limit: 2000 }"));
  }

  @Test
  @Proves("unified")
  void unifiedFilesAreWrittenLastReadBackAndRolledBack() throws IOException {
    Container job =
        api.create(
            "/job",
            ContainerSpec.builder().unified(Map.of("memory.swap.high", "104857600")).build());
    assertThat(file("/job", "memory.swap.high")).isEqualTo("104857600");
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("unified { \"memory.swap.high\": \"104857600\" }"));
    LmctfyException e =
        catchThrowableOfType(
            LmctfyException.class,
            () ->
                job.update(
                    ContainerSpec.builder()
                        .memory(org.lmctfy.spec.MemorySpec.ofLimit(83886080))
                        .unified(Map.of("memory.swap.high", "52428800", "pids.nonexistent", "1"))
                        .build(),
                    UpdatePolicy.DIFF));
    assertThat(e).isNotNull();
    assertThat(file("/job", "memory.swap.high")).isEqualTo("104857600");
    assertThat(file("/job", "memory.max")).isEqualTo("max");
  }

  /**
   * Every unified entry round-trips: the kernel must show the value as given (memory.swap.high is
   * kept in whole pages), else INVALID_ARGUMENT with the kernel's form, and nothing stays.
   */
  @Test
  @Proves("unified")
  void aUnifiedValueTheKernelShowsOtherwiseIsInvalidWithTheKernelsFormAndTheKernelsFormRoundTrips()
      throws IOException {
    LmctfyException e =
        refused(ErrorCode.INVALID_ARGUMENT, "unified { \"memory.swap.high\": \"100000\" }");
    assertThat(e.getMessage()).contains("unified.memory.swap.high", "100000", "98304");
    String kernels = "unified { \"memory.swap.high\": \"98304\" }";
    assertThat(createAndRead(kernels, kernels, "memory.swap.high")).isEqualTo("98304");
    Container job = api.get("/job");
    refusedUpdate(job, "unified { \"memory.swap.high\": \"200000\" }", ErrorCode.INVALID_ARGUMENT);
    assertThat(file("/job", "memory.swap.high")).isEqualTo("98304");
    job.update(ContainerSpec.parse("unified { \"memory.swap.high\": \"max\" }"), UpdatePolicy.DIFF);
    assertThat(job.spec())
        .isEqualTo(ContainerSpec.parse("unified { \"memory.swap.high\": \"max\" }"));
  }

  /**
   * A write-only file (an operation) or a read-only statistic is no setting: refused before
   * anything is asked.
   */
  @Test
  @Proves(value = "unified", refusal = "INVALID_ARGUMENT")
  void writeOnlyOperationsAndReadOnlyStatisticsAreRefusedInUnified() {
    for (String name :
        java.util.List.of(
            "memory.reclaim",
            "memory.current",
            "memory.peak",
            "memory.events",
            "memory.stat",
            "io.stat",
            "cpu.stat",
            "pids.peak",
            "cpuset.cpus.effective",
            "hugetlb.2MB.rsvd.current",
            "misc.events.local")) {
      assertThatLmctfyException(() -> ContainerSpec.parse("unified { \"" + name + "\": \"0\" }"))
          .as(name)
          .hasCode(ErrorCode.INVALID_ARGUMENT)
          .hasMessageContainingAll(name);
    }
    assertThatLmctfyException(() -> ContainerSpec.parse("unified { \"memory.reclaim\": \"0\" }"))
        .hasMessageContainingAll("Container.reclaim");
  }

  @Test
  void unifiedNamesThatATypedFieldOrLmctfyOwnsAreRefused() {
    assertThatLmctfyException(() -> ContainerSpec.parse("unified { \"memory.max\": \"1\" }"))
        .hasMessageContainingAll("memory.limit");
    assertThatLmctfyException(() -> ContainerSpec.parse("unified { \"cgroup.procs\": \"1\" }"))
        .hasMessageContainingAll("lmctfy");
    assertThatLmctfyException(() -> ContainerSpec.parse("unified { \"../memory.max\": \"1\" }"))
        .hasCode(ErrorCode.INVALID_ARGUMENT);
  }

  // --- typed fields of issue 32 ----------------------------------------------------------------

  /**
   * The scratch parent (a child of the machine's root, itself a partition root) made one with CPU
   * 1.
   */
  void scratchIsAPartitionRootWithCpu1() throws IOException {
    fs.write(unified(), scratch.path(), "cpuset.cpus", "1");
    fs.write(unified(), scratch.path(), "cpuset.cpus.partition", "root");
    assertThat(fs.read(unified(), scratch.path(), "cpuset.cpus.partition").strip())
        .isEqualTo("root");
  }

  @Test
  @Proves("cpu.partition")
  void aPartitionRootGetsItsMaskExclusivelyFromAParentPartitionAndReplaceMakesItAMember()
      throws IOException {
    scratchIsAPartitionRootWithCpu1();
    try {
      String spec = "cpu { mask: \"1\" partition: ROOT }";
      assertThat(createAndRead(spec, spec, "cpuset.cpus.partition")).isEqualTo("root");
      assertThat(file("/job", "cpuset.cpus.effective")).isEqualTo("1");
      Container job = api.get("/job");
      job.update(ContainerSpec.parse("pids { limit: 9 }"), UpdatePolicy.REPLACE);
      assertThat(file("/job", "cpuset.cpus.partition")).isEqualTo("member");
      assertThat(file("/job", "cpuset.cpus")).isEmpty();
      job.update(ContainerSpec.parse("cpu { mask: \"1\" partition: ISOLATED }"), UpdatePolicy.DIFF);
      assertThat(file("/job", "cpuset.cpus.partition")).isEqualTo("isolated");
      assertThat(job.spec())
          .isEqualTo(
              ContainerSpec.parse("pids { limit: 9 } cpu { mask: \"1\" partition: ISOLATED }"));
    } finally {
      if (api.exists("/job")) {
        api.destroy("/job");
      }
      fs.write(unified(), scratch.path(), "cpuset.cpus.partition", "member");
    }
  }

  /**
   * The kernel takes the write and reads "root invalid (reason)": FAILED_PRECONDITION with the
   * reason, undone.
   */
  @Test
  @Proves(value = "cpu.partition", refusal = "FAILED_PRECONDITION")
  void aPartitionRootBelowAParentThatIsNoneIsFailedPreconditionWithTheKernelsReason() {
    LmctfyException e =
        refused(ErrorCode.FAILED_PRECONDITION, "cpu { mask: \"1\" partition: ROOT }");
    assertThat(e.getMessage()).contains("cpu.partition", "root invalid (");
    assertThatLmctfyException(() -> ContainerSpec.parse("cpu { partition: ROOT }"))
        .hasMessageContainingAll("cpu.partition", "cpu.mask");
  }

  @Test
  @Proves("memory.reservation")
  void reservationIsMemoryLow() throws IOException {
    assertThat(
            createAndRead(
                "memory { reservation: 16777216 }",
                "memory { reservation: 16777216 }",
                "memory.low"))
        .isEqualTo("16777216");
    api.get("/job").update(ContainerSpec.parse("pids { limit: 5 }"), UpdatePolicy.REPLACE);
    assertThat(file("/job", "memory.low")).isEqualTo("0");
  }

  @Test
  @Proves("memory.high")
  @Proves("memory.oom_group")
  void highAndOomGroupAreMemoryHighAndMemoryOomGroupAndReplaceResetsThem() throws IOException {
    String spec = "memory { high: 33554432 limit: 67108864 oom_group: true }";
    assertThat(createAndRead(spec, spec, "memory.high")).isEqualTo("33554432");
    assertThat(file("/job", "memory.oom.group")).isEqualTo("1");
    api.get("/job").update(ContainerSpec.parse("memory { limit: 67108864 }"), UpdatePolicy.REPLACE);
    assertThat(file("/job", "memory.high")).isEqualTo("max");
    assertThat(file("/job", "memory.oom.group")).isEqualTo("0");
  }

  @Test
  @Proves("blockio.weight")
  void blockioWeightIsTheDefaultLineOfIoWeightAndReplaceResetsIt() throws IOException {
    assertThat(
            createAndRead("blockio { weight: 500 }", "blockio { weight: 500 }", "io.weight")
                .split("\n")[0])
        .isEqualTo("default 4950");
    Container job = api.get("/job");
    job.update(ContainerSpec.parse("blockio { weight: 1000 }"), UpdatePolicy.DIFF);
    assertThat(file("/job", "io.weight").split("\n")[0]).isEqualTo("default 10000");
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse("blockio { weight: 1000 }"));
    job.update(ContainerSpec.parse("pids { limit: 5 }"), UpdatePolicy.REPLACE);
    assertThat(file("/job", "io.weight").split("\n")[0]).isEqualTo("default 100");
  }

  /**
   * On a kernel: skips where the cgroup2 root does not enable {@code controller} (needs-v2 asks for
   * five), fails in the v2 guest.
   */
  void requireAtTheRoot(String controller) throws IOException {
    if (!(fs instanceof org.lmctfy.testing.FakeCgroupFs)) {
      org.lmctfy.support.GuestLayout.requireEnabledAtTheRoot(controller);
    }
  }

  @Test
  @Proves("hugetlb.limits")
  @Proves("hugetlb.limits.reserved_limit")
  void hugetlbLimitsAreMaxAndRsvdMaxPerPageSizeAndReplaceLiftsThem() throws IOException {
    requireAtTheRoot("hugetlb");
    String spec =
        "hugetlb { limits { page_size: \"2MB\" limit: 8388608 reserved_limit: 4194304 } }";
    assertThat(createAndRead(spec, spec, "hugetlb.2MB.max")).isEqualTo("8388608");
    assertThat(file("/job", "hugetlb.2MB.rsvd.max")).isEqualTo("4194304");
    api.get("/job").update(ContainerSpec.parse("pids { limit: 5 }"), UpdatePolicy.REPLACE);
    assertThat(file("/job", "hugetlb.2MB.max")).isEqualTo("max");
    assertThat(file("/job", "hugetlb.2MB.rsvd.max")).isEqualTo("max");
  }

  @Test
  @Proves(value = "hugetlb.limits", refusal = "FAILED_PRECONDITION")
  void aHugePageSizeTheMachineLacksIsFailedPreconditionNamingIt() throws IOException {
    requireAtTheRoot("hugetlb");
    LmctfyException e =
        refused(
            ErrorCode.FAILED_PRECONDITION, "hugetlb { limits { page_size: \"16GB\" limit: -1 } }");
    assertThat(e.getMessage()).contains("hugetlb.limits", "hugetlb.16GB.max", "16GB");
  }

  /**
   * No RDMA device on the machine (the guests, the fake by default): the kernel's ENODEV,
   * INVALID_ARGUMENT.
   */
  @Test
  @Proves(value = "rdma.limits", refusal = "INVALID_ARGUMENT")
  void rdmaLimitsOfADeviceTheMachineLacksAreInvalidNamingItAndChangeNothing() throws IOException {
    requireAtTheRoot("rdma");
    LmctfyException e =
        refused(ErrorCode.INVALID_ARGUMENT, "rdma { limits { device: \"mlx4_0\" hca_handle: 2 } }");
    assertThat(e.getMessage()).contains("rdma.max", "mlx4_0", "ENODEV");
  }

  /**
   * No misc resource on the machine (misc.capacity is empty under QEMU and on the fake by default):
   * EINVAL.
   */
  @Test
  @Proves(value = "misc.limits", refusal = "INVALID_ARGUMENT")
  void miscLimitsOfAResourceTheMachineLacksAreInvalidNamingItAndChangeNothing() throws IOException {
    requireAtTheRoot("misc");
    LmctfyException e =
        refused(ErrorCode.INVALID_ARGUMENT, "misc { limits { resource: \"sev\" limit: 1 } }");
    assertThat(e.getMessage()).contains("misc.max", "sev", "EINVAL");
  }

  @Test
  @Proves(value = "network", refusal = "FAILED_PRECONDITION")
  @Proves(value = "monitoring", refusal = "FAILED_PRECONDITION")
  void networkAndMonitoringHaveNoV2HierarchyAndSaySo() {
    assertThat(refused(ErrorCode.FAILED_PRECONDITION, "network { classid: 1048577 }").getMessage())
        .contains("network.classid", "net_cls");
    assertThat(
            refused(
                    ErrorCode.FAILED_PRECONDITION,
                    "network { priorities { interface: \"lo\" priority: 3 } }")
                .getMessage())
        .contains("network.priorities", "net_prio");
    assertThat(refused(ErrorCode.FAILED_PRECONDITION, "monitoring { }").getMessage())
        .contains("monitoring", "perf_event");
  }

  @Test
  @Proves(value = "cpu.scheduling_latency", refusal = "FAILED_PRECONDITION")
  void schedulingLatencyNeedsAGoogleKernelAndSaysSo() {
    assertThat(
            refused(ErrorCode.FAILED_PRECONDITION, "cpu { scheduling_latency: PREMIER }")
                .getMessage())
        .contains("cpu.scheduling_latency", "cpu.lat");
  }

  @Test
  @Proves(value = "memory.oom_kill_disable", refusal = "FAILED_PRECONDITION")
  @Proves(value = "memory.swappiness", refusal = "FAILED_PRECONDITION")
  void v1OnlyMemoryKnobsAreRefusedNamingTheField() {
    assertThat(
            refused(ErrorCode.FAILED_PRECONDITION, "memory { oom_kill_disable: true }")
                .getMessage())
        .contains("memory.oom_kill_disable", "v2");
    assertThat(refused(ErrorCode.FAILED_PRECONDITION, "memory { swappiness: 10 }").getMessage())
        .contains("memory.swappiness", "v2");
  }

  @Test
  @Proves("owner, owner_group")
  void ownerChownsTheCgroupAndItsDelegateFilesAndReadsBack() throws IOException {
    String spec = "owner: 4711 owner_group: 4712 pids { limit: 5 }";
    Container job = api.create("/job", ContainerSpec.parse(spec));
    assertThat(fs.owner(unified(), path("/job"), null)).isEqualTo(new Owner(4711, 4712));
    for (String file : new String[] {"cgroup.procs", "cgroup.threads", "cgroup.subtree_control"}) {
      assertThat(fs.owner(unified(), path("/job"), file)).as(file).isEqualTo(new Owner(4711, 4712));
    }
    assertThat(fs.owner(unified(), path("/job"), "pids.max")).isEqualTo(new Owner(0, 0));
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse(spec));
    job.update(ContainerSpec.parse("pids { limit: 5 }"), UpdatePolicy.REPLACE);
    assertThat(fs.owner(unified(), path("/job"), null)).isEqualTo(new Owner(0, 0));
  }

  @Test
  @Proves("children_limit")
  void childrenLimitIsMaxDescendantsAndTheKernelRefusesOneMore() throws IOException {
    Container job = api.create("/job", ContainerSpec.parse("children_limit: 2"));
    assertThat(file("/job", "cgroup.max.descendants")).isEqualTo("2");
    api.create("/job/a", ContainerSpec.empty());
    api.create("/job/b", ContainerSpec.empty());
    LmctfyException e =
        catchThrowableOfType(
            LmctfyException.class, () -> api.create("/job/c", ContainerSpec.empty()));
    assertThat(e).isNotNull();
    assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(e.getMessage())
        .contains("/job/c", "EAGAIN")
        .contains("cgroup.max.descendants of " + unified().display(path("/job"), null) + " is 2");
    assertThat(fs.children(unified(), path("/job"))).containsExactlyInAnyOrder("a", "b");
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse("children_limit: 2"));
  }

  static final String ALLOW_ALL =
      "device { rules { permission: ALLOW type: ALL access: \"rwm\" } }";
  static final String DENY_ALL = "rules { permission: DENY type: ALL access: \"rwm\" } ";

  static String allow(String type, int major, int minor, String access) {
    return "rules { permission: ALLOW type: "
        + type
        + " major: "
        + major
        + " minor: "
        + minor
        + " access: \""
        + access
        + "\" } ";
  }

  /** The device filter as the spec that sets it: DENY ALL, then an ALLOW rule per device. */
  java.util.Optional<org.lmctfy.spec.DeviceSpec> filter(String container) throws IOException {
    return fs.deviceFilter(unified(), path(container))
        .map(
            allowed ->
                ContainerSpec.parse(
                        "device { "
                            + DENY_ALL
                            + allowed.stream()
                                .map(
                                    r ->
                                        allow(
                                            r.type().name(),
                                            (int) r.major(),
                                            (int) r.minor(),
                                            r.access()))
                                .collect(java.util.stream.Collectors.joining())
                            + "}")
                    .device());
  }

  @Test
  @Proves("device.rules")
  void allowAllDevicesNeedsNoProgramAndReadsBack() throws IOException {
    Container job = api.create("/job", ContainerSpec.parse(ALLOW_ALL));
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse(ALLOW_ALL));
    assertThat(filter("/job")).isEmpty();
  }

  @Test
  @Proves("device.rules")
  void deviceRulesAreTheCgroupsDeviceFilterMergedPerDeviceAndReadBack() throws IOException {
    Container job =
        api.create(
            "/job",
            ContainerSpec.parse(
                "device { "
                    + DENY_ALL
                    + allow("CHAR", 1, 3, "rwm")
                    + allow("CHAR", 1, 5, "r")
                    + allow("CHAR", 1, 5, "w")
                    + allow("BLOCK", 8, -1, "r")
                    + "}"));
    ContainerSpec merged =
        ContainerSpec.parse(
            "device { "
                + DENY_ALL
                + allow("CHAR", 1, 3, "rwm")
                + allow("CHAR", 1, 5, "rw")
                + allow("BLOCK", 8, -1, "r")
                + "}");
    assertThat(job.spec()).isEqualTo(merged);
    assertThat(filter("/job")).contains(merged.device());
    assertThat(
            api.normalise(
                ContainerSpec.parse(
                    "device { "
                        + DENY_ALL
                        + allow("CHAR", 1, 3, "rwm")
                        + allow("CHAR", 1, 5, "r")
                        + allow("CHAR", 1, 5, "w")
                        + allow("BLOCK", 8, -1, "r")
                        + "}")))
        .isEqualTo(merged);
  }

  @Test
  @Proves("device.rules")
  void anUpdateReplacesTheDeviceFilterAndAllowAllOrReplaceWithoutDevicesRemovesIt()
      throws IOException {
    Container job =
        api.create(
            "/job",
            ContainerSpec.parse(
                "memory { limit: 104857600 } device { "
                    + DENY_ALL
                    + allow("CHAR", 1, 3, "rwm")
                    + "}"));
    ContainerSpec zero =
        ContainerSpec.parse("device { " + DENY_ALL + allow("CHAR", 1, 5, "r") + "}");
    job.update(zero, UpdatePolicy.DIFF);
    assertThat(filter("/job")).contains(zero.device());
    assertThat(job.spec())
        .isEqualTo(
            ContainerSpec.parse(
                "memory { limit: 104857600 } device { "
                    + DENY_ALL
                    + allow("CHAR", 1, 5, "r")
                    + "}"));
    job.update(ContainerSpec.parse(ALLOW_ALL), UpdatePolicy.DIFF);
    assertThat(filter("/job")).isEmpty();
    assertThat(job.spec().device()).isEqualTo(ContainerSpec.parse(ALLOW_ALL).device());
    job.update(zero, UpdatePolicy.DIFF);
    job.update(ContainerSpec.parse("memory { limit: 104857600 }"), UpdatePolicy.REPLACE);
    assertThat(filter("/job")).isEmpty();
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse("memory { limit: 104857600 }"));
  }

  @Test
  void denyAllAloneIsAFilterThatAllowsNothingAndAChildHasItsOwn() throws IOException {
    Container job = api.create("/job", ContainerSpec.parse("device { " + DENY_ALL + "}"));
    api.create(
        "/job/child", ContainerSpec.parse("device { " + DENY_ALL + allow("CHAR", 1, 3, "r") + "}"));
    assertThat(filter("/job")).contains(ContainerSpec.parse("device { " + DENY_ALL + "}").device());
    assertThat(filter("/job/child"))
        .contains(
            ContainerSpec.parse("device { " + DENY_ALL + allow("CHAR", 1, 3, "r") + "}").device());
    job.destroy();
    assertThat(api.exists("/job")).isFalse();
  }

  void refusedUpdate(Container job, String spec, ErrorCode code) {
    assertThatLmctfyException(() -> job.update(ContainerSpec.parse(spec), UpdatePolicy.DIFF))
        .hasCode(code);
  }
}
