package org.lmctfy.examples;

import java.io.OutputStream;
import java.util.List;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ResourceHandle;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;

/**
 * The virtual host of docs/virtual-hosts.md: a container that is its own machine, with its own root
 * (a directory holding a {@code /bin/sh}, {@code /proc} and {@code /dev}), host name and
 * loopback-only network; a program run in it sees only the virtual host ({@code java -cp
 * examples/target/lmctfy.jar org.lmctfy.examples.VirtualHost <rootfs>}, as root or in a delegated
 * subtree; it needs bubblewrap and catatonit).
 */
public final class VirtualHost {
  private VirtualHost() {}

  public static void main(String[] args) {
    ExampleMain.run(
        "VirtualHost <rootfs>   (a directory with /bin/sh, /proc and /dev)",
        1,
        args,
        () -> {
          try (ContainerApi api = ContainerApi.open()) {
            return machine(api, args[0], System.out);
          }
        });
  }

  /**
   * Makes {@code /vh} with its root at {@code rootfs}, runs a program in it, destroys it; the
   * program's exit code.
   */
  static int machine(ContainerApi api, String rootfs, OutputStream out) throws Exception {
    ContainerSpec spec =
        ContainerSpec.parse(
            "virtual_host { virtual_hostname: 'vh' network {} }"
                + " filesystem { rootfs: '"
                + rootfs
                + "' }"); // pid, ipc, mount, uts and network namespaces
    try (ResourceHandle<Container> handle = api.createHandle("/vh", spec)) {
      Container vh = handle.get(); // its init runs, pid 1 inside
      ContainerProcess p =
          vh.run(
              List.of("/bin/sh", "-c", "hostname; echo $$; cat /proc/net/dev"),
              RunSpec.inherit()); // joins its namespaces and cgroups
      p.stdout().transferTo(out); // vh, 2, and only lo
      return p.waitFor();
    } // destroyed: no process, mount or namespace left
  }
}
