package org.lmctfy.lifecycle;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The hierarchy limits contract on this machine's kernel: its cgroup2 hierarchy, whatever it
 * enables (the caps need no controller), hybrid or pure v2.
 */
@Tag("kernel")
class KernelHierarchyLimitsTest extends HierarchyLimitsContract {
  KernelHierarchyLimitsTest() {
    super(ContractBackend.host());
  }
}
