package org.lmctfy.support;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.contract.ContractBackend;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Tests of the API over a backend, each case below a fresh scratch parent that is the API's root
 * and is removed afterwards (with everything the case left).
 */
public abstract class ApiOnScratch {
  private final ContractBackend backend;
  protected CgroupFs fs;
  protected ScratchCgroups scratch;
  protected ContainerApi api;

  protected ApiOnScratch(ContractBackend backend) {
    this.backend = backend;
  }

  @BeforeEach
  final void openApi() throws IOException {
    fs = backend.open();
    scratch = ScratchCgroups.on(fs);
    api = ContainerApi.open(fs, scratch.path());
  }

  @AfterEach
  final void closeApi() throws Exception {
    Teardown.close(api, scratch);
  }
}
