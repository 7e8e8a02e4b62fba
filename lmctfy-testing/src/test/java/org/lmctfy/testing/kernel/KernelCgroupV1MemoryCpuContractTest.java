package org.lmctfy.testing.kernel;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.CgroupV1MemoryCpuContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupV1MemoryCpuContract} on this machine's kernel (skipped, with the reason, where this
 * machine does not serve it).
 */
@Tag("kernel")
@Tag("needs-v1") // v1 controller files
class KernelCgroupV1MemoryCpuContractTest extends CgroupV1MemoryCpuContract {
  KernelCgroupV1MemoryCpuContractTest() {
    super(ContractBackend.host());
  }
}
