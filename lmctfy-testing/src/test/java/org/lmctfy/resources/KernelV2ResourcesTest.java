package org.lmctfy.resources;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.ContractBackend;

/**
 * The v2 field contract on a pure v2 kernel with cpu, cpuset, io, memory and pids enabled down to
 * the API's root: the {@code v2} guest of .ci/kernel-vm (Debian 6.1 and 6.12).
 */
@Tag("kernel")
@Tag("needs-v2")
class KernelV2ResourcesTest extends V2ResourcesContract {
  KernelV2ResourcesTest() {
    super(ContractBackend.host());
  }
}
