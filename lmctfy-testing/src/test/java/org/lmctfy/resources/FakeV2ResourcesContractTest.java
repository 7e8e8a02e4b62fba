package org.lmctfy.resources;

import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.ContractBackend;

/** The v2 field contract on the fake's pure v2 layout. */
class FakeV2ResourcesContractTest extends V2ResourcesContract {
  FakeV2ResourcesContractTest() {
    super(ContractBackend.fake(FakeLayout.V2));
  }
}
