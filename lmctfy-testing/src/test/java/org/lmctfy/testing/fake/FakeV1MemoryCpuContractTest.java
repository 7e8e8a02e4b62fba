package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupV1MemoryCpuContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupV1MemoryCpuContract} on the fake laid out as {@link FakeLayout#HYBRID_HUGETLB_V2}.
 */
class FakeV1MemoryCpuContractTest extends CgroupV1MemoryCpuContract {
  FakeV1MemoryCpuContractTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
