package org.lmctfy.testing.fake;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.CgroupFsFilesContract;
import org.lmctfy.testing.FakeLayout;

/** {@link CgroupFsFilesContract} on the fake laid out as {@link FakeLayout#THIS_MACHINE}. */
class FakeCgroupFsFilesContractTest extends CgroupFsFilesContract {
  FakeCgroupFsFilesContractTest() {
    super(ContractBackend.fake(FakeLayout.THIS_MACHINE));
  }
}
