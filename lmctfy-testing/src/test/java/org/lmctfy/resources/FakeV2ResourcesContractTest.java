package org.lmctfy.resources;

import org.lmctfy.testing.ContractBackend;
import org.lmctfy.testing.FakeLayout;

/** The v2 field contract on the fake's pure v2 layout. */
class FakeV2ResourcesContractTest extends V2ResourcesContract {
  FakeV2ResourcesContractTest() {
    super(ContractBackend.fake(FakeLayout.V2));
  }
}
