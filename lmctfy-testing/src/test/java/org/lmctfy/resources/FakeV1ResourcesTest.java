package org.lmctfy.resources;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.ContractBackend;

/** The v1 field contract on the fake laid out like this project's machines. */
class FakeV1ResourcesTest extends V1ResourcesContract {
  FakeV1ResourcesTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
