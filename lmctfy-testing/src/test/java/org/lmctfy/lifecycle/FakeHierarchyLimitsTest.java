package org.lmctfy.lifecycle;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.ContractBackend;

/** The hierarchy limits contract on the fake laid out like this project's machine. */
class FakeHierarchyLimitsTest extends HierarchyLimitsContract {
  FakeHierarchyLimitsTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }
}
