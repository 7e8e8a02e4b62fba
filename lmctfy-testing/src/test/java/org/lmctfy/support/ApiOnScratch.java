package org.lmctfy.support;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.spec.RunSpec;
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
  private final List<Container> running = new ArrayList<>();

  protected ApiOnScratch(ContractBackend backend) {
    this.backend = backend;
  }

  @BeforeEach
  final void openApi() throws IOException {
    fs = backend.open();
    scratch = ScratchCgroups.on(fs);
    api = ContainerApi.open(fs, scratch.path());
  }

  /**
   * Runs {@code script} with {@code /bin/sh -c}, detached, in {@code c}; whatever runs in {@code c}
   * is killed after the case, before the scratch parent is removed.
   */
  protected ContainerProcess run(Container c, String script) {
    running.add(c);
    return c.run(List.of("/bin/sh", "-c", script), RunSpec.detached());
  }

  @AfterEach
  final void closeApi() throws Exception {
    for (Container c : running) {
      if (api.exists(c.name())) {
        c.killAll();
      }
    }
    Teardown.close(api, scratch);
  }
}
