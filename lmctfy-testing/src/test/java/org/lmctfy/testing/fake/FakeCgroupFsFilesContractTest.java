package org.lmctfy.testing.fake;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.CgroupFsFilesContract;
import org.lmctfy.testing.FakeLayout;

/** {@link CgroupFsFilesContract} on the fake laid out as {@link FakeLayout#HYBRID_HUGETLB_V2}. */
class FakeCgroupFsFilesContractTest extends CgroupFsFilesContract {
  FakeCgroupFsFilesContractTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
