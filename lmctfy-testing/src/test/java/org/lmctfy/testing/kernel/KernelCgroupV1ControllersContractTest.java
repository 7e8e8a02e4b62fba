package org.lmctfy.testing.kernel;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.CgroupV1ControllersContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupV1ControllersContract} on this machine's kernel (skipped, with the reason, where
 * this machine does not serve it).
 */
@Tag("kernel")
@Tag("needs-v1") // v1 controller files
class KernelCgroupV1ControllersContractTest extends CgroupV1ControllersContract {
  KernelCgroupV1ControllersContractTest() {
    super(ContractBackend.host());
  }
}
