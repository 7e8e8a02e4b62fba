package org.lmctfy.testing.kernel;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.CgroupFsContract;

/** {@link CgroupFsContract} on this machine's kernel (skipped without root, failed under CI=true). */
class KernelCgroupFsContractTest extends CgroupFsContract {
  KernelCgroupFsContractTest() {
    super(ContractBackend.host());
  }
}
