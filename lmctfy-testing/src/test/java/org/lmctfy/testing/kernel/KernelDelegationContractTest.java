package org.lmctfy.testing.kernel;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.CgroupDelegationContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupDelegationContract} on this machine's unified hierarchy, the tenant being one thread
 * of this JVM with uid 64999 (skipped, with the reason, where this machine does not serve it).
 */
@Tag("kernel")
class KernelDelegationContractTest extends CgroupDelegationContract {
  KernelDelegationContractTest() {
    super(ContractBackend.host());
  }
}
