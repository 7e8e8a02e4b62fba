package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupFsFilesContract;
import org.lmctfy.testing.contract.ContractBackend;

/** {@link CgroupFsFilesContract} on the fake laid out as {@link FakeLayout#HYBRID_HUGETLB_V2}. */
class FakeCgroupFsFilesContractTest extends CgroupFsFilesContract {
  FakeCgroupFsFilesContractTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
