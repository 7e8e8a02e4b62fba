package org.lmctfy.examples;

import java.io.OutputStream;
import java.util.List;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ResourceHandle;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.CpuSpec;
import org.lmctfy.spec.MemorySpec;
import org.lmctfy.spec.PidsSpec;
import org.lmctfy.spec.RunSpec;

/**
 * Runs a command in a fresh container with CPU, memory and task limits, copies its output, and
 * destroys the container however the command ends: {@code java -cp examples/target/lmctfy.jar
 * org.lmctfy.examples.RunWithLimits sh -c 'echo hello from $(cat /proc/self/cgroup | head -1)'} (as
 * root).
 */
public final class RunWithLimits {
  private RunWithLimits() {}

  /** Runs {@code argv} under limits in a container of the host; exits with the command's code. */
  public static void main(String[] args) {
    ExampleMain.run(
        "RunWithLimits <command> [<argument>...]   (as root)",
        1,
        args,
        () -> {
          try (ContainerApi api = ContainerApi.open()) {
            return run(
                api,
                "/run-with-limits-" + ProcessHandle.current().pid(),
                List.of(args),
                System.out);
          }
        });
  }

  /** Runs {@code argv} in a new container {@code name} (destroyed afterwards); its exit code. */
  public static int run(ContainerApi api, String name, List<String> argv, OutputStream out)
      throws Exception {
    ContainerSpec limits =
        ContainerSpec.builder()
            .cpu(
                CpuSpec.builder()
                    .limit(500L)
                    .maxLimit(1000L)
                    .build()) // half a CPU assured, one at most
            .memory(MemorySpec.ofLimit(256L << 20)) // 256 MiB
            .pids(PidsSpec.builder().limit(64L).build())
            .build();
    try (ResourceHandle<Container> job = api.createHandle(name, limits)) { // destroyed on close
      ContainerProcess p = job.get().run(argv, RunSpec.inherit()); // placed before it execs
      p.stdout().transferTo(out);
      return p.waitFor();
    }
  }
}
