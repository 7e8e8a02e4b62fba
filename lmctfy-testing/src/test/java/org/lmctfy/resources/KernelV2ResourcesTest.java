package org.lmctfy.resources;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.ContractBackend;

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
}
