package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupV2Contract;
import org.lmctfy.testing.contract.ContractBackend;

/** {@link CgroupV2Contract} on the fake laid out as {@link FakeLayout#HYBRID_HUGETLB_V2}. */
class FakeV2CoreContractTest extends CgroupV2Contract {
  FakeV2CoreContractTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
