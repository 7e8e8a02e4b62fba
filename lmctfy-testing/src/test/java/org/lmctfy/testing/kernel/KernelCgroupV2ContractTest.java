package org.lmctfy.testing.kernel;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.CgroupV2Contract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupV2Contract} on this machine's kernel (skipped, with the reason, where this machine
 * does not serve it).
 */
@Tag("kernel")
class KernelCgroupV2ContractTest extends CgroupV2Contract {
  KernelCgroupV2ContractTest() {
    super(ContractBackend.host());
  }
}
