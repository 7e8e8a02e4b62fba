package org.lmctfy.testing.kernel;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.CgroupFsContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupFsContract} on this machine's kernel (skipped, with the reason, where this machine
 * does not serve it).
 */
@Tag("kernel")
class KernelCgroupFsContractTest extends CgroupFsContract {
  KernelCgroupFsContractTest() {
    super(ContractBackend.host());
  }
}
