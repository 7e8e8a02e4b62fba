package org.lmctfy.testing.kernel;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.CgroupV1CpusetDevicesPidsContract;

/** {@link CgroupV1CpusetDevicesPidsContract} on this machine's kernel (skipped without root, failed under CI=true). */
class KernelCgroupV1CpusetDevicesPidsContractTest extends CgroupV1CpusetDevicesPidsContract {
  KernelCgroupV1CpusetDevicesPidsContractTest() {
    super(ContractBackend.host());
  }
}
