package org.lmctfy.testing.fake;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupV1CpusetDevicesPidsContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * {@link CgroupV1CpusetDevicesPidsContract} on the fake laid out as {@link
 * FakeLayout#HYBRID_HUGETLB_V2}.
 */
class FakeV1CpusetDevicesPidsContractTest extends CgroupV1CpusetDevicesPidsContract {
  FakeV1CpusetDevicesPidsContractTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
