package org.lmctfy.testing.kernel;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.CgroupFsFilesContract;

/** {@link CgroupFsFilesContract} on this machine's kernel (skipped without root, failed under CI=true). */
class KernelCgroupFsFilesContractTest extends CgroupFsFilesContract {
  KernelCgroupFsFilesContractTest() {
    super(ContractBackend.host());
  }
}
