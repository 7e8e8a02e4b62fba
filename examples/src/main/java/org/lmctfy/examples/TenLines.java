package org.lmctfy.examples;

import java.util.List;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ResourceHandle;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;

/**
 * The README's ten lines: a container capped at half a CPU and 64 MiB, a program run in it, the
 * container gone afterwards ({@code java -cp examples/target/lmctfy.jar
 * org.lmctfy.examples.TenLines}, as root).
 */
public final class TenLines {
  private TenLines() {}

  public static void main(String[] args) {
    ExampleMain.run(
        "TenLines   (as root)",
        0,
        args,
        () -> {
          try (ContainerApi api = ContainerApi.open()) { // the host's cgroups
            return tenLines(api);
          }
        });
  }

  /** The ten lines, over any API; the program's exit code. */
  static int tenLines(ContainerApi api) throws Exception {
    ContainerSpec spec =
        ContainerSpec.parse("cpu { max_limit: 500 } memory { limit: 64M }"); // half a CPU, 64 MiB
    try (ResourceHandle<Container> handle = api.createHandle("/job", spec)) {
      Container job = handle.get(); // in every hierarchy, limits set
      ContainerProcess p = job.run(List.of("cat", "/proc/self/cgroup"), RunSpec.inherit());
      p.stdout().transferTo(System.out); // it runs inside from its first instruction
      return p.waitFor();
      // handle.commit() would keep the container; without it, close() destroys it
    }
  }
}
