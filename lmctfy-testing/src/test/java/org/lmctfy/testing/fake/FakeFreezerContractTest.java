package org.lmctfy.testing.fake;

import org.junit.jupiter.api.Nested;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.CgroupV1FreezerContract;
import org.lmctfy.testing.contract.CgroupV2FreezerContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The freezer contracts on the fake: the v1 freezer of the hybrid layout, the unified one of both.
 */
class FakeFreezerContractTest {
  @Nested
  class V1 extends CgroupV1FreezerContract {
    V1() {
      super(ContractBackend.fake(FakeLayout.HYBRID));
    }
  }

  @Nested
  class Hybrid extends CgroupV2FreezerContract {
    Hybrid() {
      super(ContractBackend.fake(FakeLayout.HYBRID));
    }
  }

  @Nested
  class PureV2 extends CgroupV2FreezerContract {
    PureV2() {
      super(ContractBackend.fake(FakeLayout.V2));
    }
  }
}
