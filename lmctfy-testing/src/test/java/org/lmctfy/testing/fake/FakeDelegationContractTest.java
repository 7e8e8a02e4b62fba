package org.lmctfy.testing.fake;

import org.lmctfy.testing.CgroupDelegationContract;
import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.FakeLayout;

/** {@link CgroupDelegationContract} on the fake laid out as {@link FakeLayout#V2}, through {@code asUser}. */
class FakeDelegationContractTest extends CgroupDelegationContract {
  FakeDelegationContractTest() {
    super(ContractBackend.fake(FakeLayout.V2));
  }
}
