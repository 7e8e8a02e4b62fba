package org.lmctfy.resources;

import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The v1 field contract on this machine's kernel (skipped, with the reason, where this machine does
 * not serve it).
 */
@Tag("kernel")
@Tag("needs-v1")
class KernelV1ResourcesTest extends V1ResourcesContract {
  KernelV1ResourcesTest() {
    super(ContractBackend.host());
  }
}
