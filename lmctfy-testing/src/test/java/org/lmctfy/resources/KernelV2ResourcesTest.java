package org.lmctfy.resources;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.support.Proves;
import org.junit.jupiter.api.condition.EnabledIf;
import org.lmctfy.testing.ContractBackend;

/**
 * The v2 field contract on a pure v2 kernel with cpu, cpuset, io, memory and pids enabled down to
 * the API's root: the {@code v2} guest of .ci/kernel-vm (Debian 6.1 and 6.12), whose
 * .ci/kernel-tests selects it by its tag. Under Maven on a machine without that layout (this
 * project's hybrid host) it is disabled, as .ci/kernel-tests would not select it there.
 */
@Tag("kernel")
@Tag("needs-v2")
@EnabledIf(value = "v2ControllersAtTheRoot", disabledReason = "needs-v2: the root cgroup2's subtree_control "
    + "must enable cpuset cpu io memory pids (the v2 guest of .ci/kernel-vm)")
class KernelV2ResourcesTest extends V2ResourcesContract {
  KernelV2ResourcesTest() {
    super(ContractBackend.host());
  }

  /**
   * Debian builds 6.1 and 6.12 without CONFIG_UCLAMP_TASK_GROUP (no cpu.uclamp.* files): refused
   * before anything is made, naming the field and the option. {@link FakeV2ResourcesTest} shows
   * the values on a kernel with it.
   */
  @Test
  @Proves(value = "cpu.uclamp_min", refusal = "FAILED_PRECONDITION")
  @Proves(value = "cpu.uclamp_max", refusal = "FAILED_PRECONDITION")
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

  static boolean v2ControllersAtTheRoot() throws IOException {
    Path subtree = Path.of("/sys/fs/cgroup/cgroup.subtree_control");
    return Files.isReadable(subtree)
        && Set.of(Files.readString(subtree).strip().split("\\s+")).containsAll(List.of("cpuset", "cpu", "io", "memory", "pids"));
  }
}
