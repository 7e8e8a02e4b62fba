package org.lmctfy.testing.fake;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.CgroupFsContract;
import org.lmctfy.testing.FakeLayout;

/** {@link CgroupFsContract} on the fake laid out as {@link FakeLayout#HYBRID}. */
class FakeHybridCgroupFsContractTest extends CgroupFsContract {
  FakeHybridCgroupFsContractTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID));
  }
}
