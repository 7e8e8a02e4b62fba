package org.lmctfy.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The JFR events on this machine's kernel (skipped, with the reason, where it does not serve it):
 * an OOM is a process allocating past the container's limit.
 */
@Tag("kernel")
@Tag("needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
class KernelJfrTest extends JfrContract {
  KernelJfrTest() {
    super(ContractBackend.host());
  }

  @Override
  void runOutOfMemory(Container job) throws Exception {
    // tail holds a 100 MiB "line" in a 64 MiB container: the OOM killer kills it
    ContainerProcess hog =
        job.run(List.of("sh", "-c", "head -c 100M /dev/zero | tail"), RunSpec.detached());
    assertThat(hog.waitFor(Duration.ofSeconds(60))).isPresent();
  }
}
