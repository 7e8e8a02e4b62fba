package org.lmctfy.testing.kernel;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.CgroupV1ControllersContract;

/** {@link CgroupV1ControllersContract} on this machine's kernel (skipped without root, failed under CI=true). */
class KernelCgroupV1ControllersContractTest extends CgroupV1ControllersContract {
  KernelCgroupV1ControllersContractTest() {
    super(ContractBackend.host());
  }
}
