package org.lmctfy.lifecycle;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.ContractBackend;

/** The lifecycle contract on the fake laid out like this project's machines. */
class FakeLifecycleTest extends LifecycleContract {
  FakeLifecycleTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
