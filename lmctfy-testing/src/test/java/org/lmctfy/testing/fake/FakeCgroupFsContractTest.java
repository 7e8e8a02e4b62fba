package org.lmctfy.testing.fake;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.CgroupFsContract;
import org.lmctfy.testing.FakeLayout;

/** {@link CgroupFsContract} on the fake laid out as {@link FakeLayout#THIS_MACHINE}. */
class FakeCgroupFsContractTest extends CgroupFsContract {
  FakeCgroupFsContractTest() {
    super(ContractBackend.fake(FakeLayout.THIS_MACHINE));
  }
}
