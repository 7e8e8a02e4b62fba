package org.lmctfy.testing.kernel;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.CgroupV1FreezerContract;
import org.lmctfy.testing.contract.CgroupV2FreezerContract;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The freezer contracts on this machine's kernel (skipped, with the reason, where this machine does
 * not serve it).
 */
@Tag("kernel")
class KernelFreezerContractTest {
  @Nested
  @Tag("needs-v1")
  class V1 extends CgroupV1FreezerContract {
    V1() {
      super(ContractBackend.host());
    }
  }

  @Nested
  class V2 extends CgroupV2FreezerContract {
    V2() {
      super(ContractBackend.host());
    }
  }
}
