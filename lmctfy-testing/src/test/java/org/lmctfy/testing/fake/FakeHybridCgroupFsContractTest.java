package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupFsContract;
import org.lmctfy.testing.contract.ContractBackend;

/** {@link CgroupFsContract} on the fake laid out as {@link FakeLayout#HYBRID}. */
class FakeHybridCgroupFsContractTest extends CgroupFsContract {
  FakeHybridCgroupFsContractTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID));
  }
}
