package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupFsContract;
import org.lmctfy.testing.contract.ContractBackend;

/** {@link CgroupFsContract} on the fake laid out as {@link FakeLayout#HYBRID_HUGETLB_V2}. */
class FakeCgroupFsContractTest extends CgroupFsContract {
  FakeCgroupFsContractTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
