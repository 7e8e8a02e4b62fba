package org.lmctfy.testing.kernel;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.CgroupV2ControllersContract;
import org.lmctfy.testing.contract.ContractBackend;

/** {@link CgroupV2ControllersContract} on the kernel, where the layout gives the v2 controllers. */
@Tag("kernel")
@Tag("needs-v2")
class KernelCgroupV2ControllersContractTest extends CgroupV2ControllersContract {
  KernelCgroupV2ControllersContractTest() {
    super(ContractBackend.host());
  }
}
