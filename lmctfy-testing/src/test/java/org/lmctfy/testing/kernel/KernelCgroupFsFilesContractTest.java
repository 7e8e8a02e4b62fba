package org.lmctfy.testing.kernel;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.CgroupFsFilesContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupFsFilesContract} on this machine's kernel (skipped, with the reason, where this
 * machine does not serve it).
 */
@Tag("kernel")
class KernelCgroupFsFilesContractTest extends CgroupFsFilesContract {
  KernelCgroupFsFilesContractTest() {
    super(ContractBackend.host());
  }
}
