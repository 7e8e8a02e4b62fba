package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.BlockDevices;
import org.lmctfy.support.GuestLayout;
import org.lmctfy.support.Proves;
import org.lmctfy.testing.contract.ContractBackend;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The v2 field contract on a pure v2 kernel with cpuset, cpu, io, memory and pids enabled down to
 * the API's root: the {@code v2} guests of .ci/kernel-vm (Debian 6.1 and 6.12). Where the cgroup2
 * root does not enable them (this project's hybrid host) the tag {@code needs-v2} skips it, with
 * the reason.
 */
@Tag("kernel")
@Tag("needs-v2")
class KernelV2ResourcesTest extends V2ResourcesContract {
  KernelV2ResourcesTest() {
    super(ContractBackend.host());
  }

  /**
   * Debian builds 6.1 and 6.12 without CONFIG_UCLAMP_TASK_GROUP (no cpu.uclamp.* files): refused
   * before anything is made, naming the field and the option. {@link FakeV2ResourcesTest} shows the
   * values on a kernel with it.
   */
  @Test
  @Proves(value = "cpu.uclamp_min, cpu.uclamp_max", refusal = "FAILED_PRECONDITION")
  void uclampOnAKernelWithoutItIsFailedPreconditionNamingTheOption() throws IOException {
    String spec = "cpu { uclamp_min: 10 uclamp_max: 80 }";
    if (fs.hasFile(unified(), scratch.path(), "cpu.uclamp.min")) {
      assertThat(createAndRead(spec, spec, "cpu.uclamp.min")).isEqualTo("10.00");
    } else {
      LmctfyException e = refused(ErrorCode.FAILED_PRECONDITION, spec);
      assertThat(e.getMessage()).contains("cpu.uclamp_min", "CONFIG_UCLAMP_TASK_GROUP");
      LmctfyException top = refused(ErrorCode.FAILED_PRECONDITION, "cpu { uclamp_max: 80 }");
      assertThat(top.getMessage()).contains("cpu.uclamp_max", "cpu.uclamp.max");
    }
  }

  /**
   * Per-device io.weight lines are iocost's, which works where the root enabled it for the device
   * (io.cost.qos, a machine-wide setting tests leave alone): the v2 guest's layout enables it on
   * its disk, as an administrator would. Elsewhere the machine lacks it (a skip), in the guest it
   * must run.
   */
  @Test
  @Proves("blockio.device_weights")
  void perDeviceWeightsAreIoWeightLinesOnADiskWithIocost() throws IOException {
    String dev = BlockDevices.aDisk().majMin();
    requireIocost(dev);
    String[] mm = dev.split(":");
    String spec =
        "blockio { weight: 500 device_weights { major: "
            + mm[0]
            + " minor: "
            + mm[1]
            + " weight: 1000 } }";
    assertThat(createAndRead(spec, spec, "io.weight")).isEqualTo("default 4950\n" + dev + " 10000");
    api.get("/job").update(ContainerSpec.parse("blockio { weight: 500 }"), UpdatePolicy.REPLACE);
    assertThat(file("/job", "io.weight")).isEqualTo("default 4950");
  }

  /**
   * Whether the root enabled iocost on {@code dev}; skips the test if not, fails it in the v2
   * guest, whose layout does.
   */
  static void requireIocost(String dev) throws IOException {
    Path qos = Path.of("/sys/fs/cgroup/io.cost.qos");
    boolean on =
        Files.isReadable(qos)
            && Files.readString(qos).lines().anyMatch(l -> l.startsWith(dev + " enable=1"));
    GuestLayout.requireHas(
        on,
        "iocost enabled on "
            + dev
            + " (the root's io.cost.qos: \""
            + (Files.isReadable(qos) ? Files.readString(qos).strip() : "")
            + "\")");
  }

  /**
   * Debian builds 6.1 and 6.12 without io.latency: FAILED_PRECONDITION, also where the write has to
   * find out.
   */
  @Test
  @Proves(value = "blockio.latency_targets", refusal = "FAILED_PRECONDITION")
  void latencyTargetsOnAKernelWithoutIoLatencyAreFailedPreconditionAlsoAtTheTop()
      throws IOException {
    String dev = BlockDevices.aDisk().majMin();
    String[] mm = dev.split(":");
    String spec =
        "blockio { latency_targets { major: " + mm[0] + " minor: " + mm[1] + " target_us: 5000 } }";
    if (fs.hasFile(unified(), scratch.path(), "io.latency")) {
      assertThat(createAndRead(spec, spec, "io.latency")).isEqualTo(dev + " target=5000");
      return;
    }
    assertThat(refused(ErrorCode.FAILED_PRECONDITION, spec).getMessage())
        .contains("blockio.latency_targets", "io.latency", "CONFIG_BLK_CGROUP_IOLATENCY");
    // a top-level container under the machine's root: no ancestor below the root can tell, the
    // write finds out
    String name =
        "/" + ScratchCgroups.PREFIX + "top-" + UUID.randomUUID().toString().substring(0, 8);
    try (ContainerApi top = ContainerApi.open(fs, CgroupPath.root())) {
      LmctfyException e =
          catchThrowableOfType(
              LmctfyException.class, () -> top.create(name, ContainerSpec.parse(spec)));
      try {
        assertThat(e).isNotNull();
        assertThat(e.code()).as(e.getMessage()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
        assertThat(e.getMessage()).contains("blockio.latency_targets", "io.latency", "ENOENT");
        assertThat(fs.exists(unified(), CgroupPath.of(name))).isFalse();
      } finally {
        if (top.exists(name)) {
          top.destroy(name);
        }
      }
    }
  }
}
