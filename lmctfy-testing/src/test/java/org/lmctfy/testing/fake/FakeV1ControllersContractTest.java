package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupV1ControllersContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupV1ControllersContract} on the fake laid out as {@link FakeLayout#HYBRID_HUGETLB_V2}.
 */
class FakeV1ControllersContractTest extends CgroupV1ControllersContract {
  FakeV1ControllersContractTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
