package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupFsFilesContract;
import org.lmctfy.testing.contract.ContractBackend;

/** {@link CgroupFsFilesContract} on the fake laid out as {@link FakeLayout#V2}. */
class FakeV2LayoutCgroupFsFilesContractTest extends CgroupFsFilesContract {
  FakeV2LayoutCgroupFsFilesContractTest() {
    super(ContractBackend.fake(FakeLayout.V2));
  }
}
