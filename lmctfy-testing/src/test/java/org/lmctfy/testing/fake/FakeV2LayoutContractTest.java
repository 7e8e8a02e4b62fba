package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupV2Contract;
import org.lmctfy.testing.contract.ContractBackend;

/** {@link CgroupV2Contract} on the fake laid out as {@link FakeLayout#V2}. */
class FakeV2LayoutContractTest extends CgroupV2Contract {
  FakeV2LayoutContractTest() {
    super(ContractBackend.fake(FakeLayout.V2));
  }
}
