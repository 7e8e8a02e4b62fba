package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupFsContract;
import org.lmctfy.testing.contract.ContractBackend;

/** {@link CgroupFsContract} on the fake laid out as {@link FakeLayout#V2}. */
class FakeV2LayoutCgroupFsContractTest extends CgroupFsContract {
  FakeV2LayoutCgroupFsContractTest() {
    super(ContractBackend.fake(FakeLayout.V2));
  }
}
