package org.lmctfy.kernel.vhost;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.support.ChildJvms;

/**
 * A second JVM that makes virtual hosts on the host under a scratch root. {@code loop <root>
 * <rootfs>}: create {@code /vh} with its own root, run a process that stays and one that exits,
 * destroy, again until killed (a create that finds {@code /vh} complete, left by a JVM killed after
 * its commit, destroys it instead). {@code create <root> <rootfs>}: create {@code /vh}, print
 * {@code init <pid>} and exit, leaving it running. Any other failure prints {@code UNEXPECTED} and
 * exits 3.
 */
public final class VirtualHostJvm {
  private VirtualHostJvm() {}

  static ContainerSpec spec(String rootfs) {
    return ContainerSpec.parse(
        "virtual_host { virtual_hostname: 'vh' network {} } filesystem { rootfs: '"
            + rootfs
            + "' }");
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (ContainerApi api =
        ContainerApi.open(ContainerApi.hostCgroupFs(), CgroupPath.of(args[1]))) {
      ContainerSpec spec = spec(args[2]);
      if (args[0].equals("create")) {
        out.println("init " + api.create("/vh", spec).initPid());
        return;
      }
      out.println("ready");
      while (true) {
        try {
          Container vh = api.create("/vh", spec);
          vh.run(List.of("/bin/sleep", "600"), RunSpec.detached());
          vh.run(List.of("/bin/true"), RunSpec.detached()).waitFor();
          vh.destroy();
        } catch (LmctfyException e) {
          if (e.code() != ErrorCode.ALREADY_EXISTS) {
            throw e;
          }
          api.destroy("/vh");
        }
      }
    } catch (LmctfyException e) {
      out.println("UNEXPECTED " + e.code() + ": " + e.getMessage());
      System.exit(3);
    }
  }

  /**
   * Starts this class in a new JVM with the test's class path; its output goes to {@code output}.
   */
  static Process start(Path output, String... args) throws IOException {
    return ChildJvms.start(ChildJvms.java("-XX:+UseSerialGC", VirtualHostJvm.class, args), output);
  }
}
