package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupDelegationContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupDelegationContract} on the fake laid out as {@link FakeLayout#V2}, through {@code
 * asUser}.
 */
class FakeDelegationContractTest extends CgroupDelegationContract {
  FakeDelegationContractTest() {
    super(ContractBackend.fake(FakeLayout.V2));
  }
}
