package org.lmctfy.testing.kernel;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.CgroupV1CpusetDevicesPidsContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupV1CpusetDevicesPidsContract} on this machine's kernel (skipped, with the reason,
 * where this machine does not serve it).
 */
@Tag("kernel")
@Tag("needs-v1") // v1 controller files
class KernelCgroupV1CpusetDevicesPidsContractTest extends CgroupV1CpusetDevicesPidsContract {
  KernelCgroupV1CpusetDevicesPidsContractTest() {
    super(ContractBackend.host());
  }
}
