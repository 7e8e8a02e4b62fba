package org.lmctfy.lifecycle;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.FakeLayout;

/** The lifecycle contract on the fake laid out like this project's machines. */
class FakeLifecycleTest extends LifecycleContract {
  FakeLifecycleTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
