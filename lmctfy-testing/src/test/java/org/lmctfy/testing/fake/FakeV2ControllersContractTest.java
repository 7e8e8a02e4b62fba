package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupV2ControllersContract;
import org.lmctfy.testing.contract.ContractBackend;

/** {@link CgroupV2ControllersContract} on the fake laid out as {@link FakeLayout#V2}. */
class FakeV2ControllersContractTest extends CgroupV2ControllersContract {
  FakeV2ControllersContractTest() {
    super(ContractBackend.fake(FakeLayout.V2));
  }
}
