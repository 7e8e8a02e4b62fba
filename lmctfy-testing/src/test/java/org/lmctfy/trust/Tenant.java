package org.lmctfy.trust;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.lmctfy.testing.internal.host.MachineLacks;

/**
 * Commands run as a tenant: uid and gid {@value #UID}, no supplementary groups, no passwd entry (no
 * user is added to the machine), through {@code setpriv}.
 */
final class Tenant {
  static final int UID = 64999;

  private Tenant() {}

  /** The tenant's command line for {@code argv}. */
  static List<String> command(List<String> argv) {
    List<String> command =
        new ArrayList<>(List.of("setpriv", "--reuid=" + UID, "--regid=" + UID, "--clear-groups"));
    command.addAll(argv);
    return command;
  }

  /** Runs {@code argv} as the tenant to its end; returns its output, failing unless it exits 0. */
  static String run(String... argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command(List.of(argv))).redirectErrorStream(true).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("the tenant's " + List.of(argv) + " did not end");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new AssertionError(
          "the tenant's " + List.of(argv) + " exited " + p.exitValue() + ": " + out);
    }
    return out;
  }

  /** Runs a Python program as the tenant (the machine has no setfattr). */
  static String python(String program, String... args) throws IOException, InterruptedException {
    MachineLacks.assumeHas(
        Files.isExecutable(Path.of("/usr/bin/python3")),
        "this test needs /usr/bin/python3 (Debian's python3) to set xattrs as the tenant");
    List<String> argv = new ArrayList<>(List.of("/usr/bin/python3", "-c", program));
    argv.addAll(List.of(args));
    return run(argv.toArray(String[]::new));
  }

  /** Sets the user xattr {@code name} on {@code dir} as the tenant. */
  static void setXattr(Path dir, String name, String value)
      throws IOException, InterruptedException {
    python(
        "import os, sys; os.setxattr(sys.argv[1], sys.argv[2], sys.argv[3].encode())",
        dir.toString(),
        name,
        value);
  }

  /** Removes the user xattr {@code name} from {@code dir} as the tenant. */
  static void removeXattr(Path dir, String name) throws IOException, InterruptedException {
    python("import os, sys; os.removexattr(sys.argv[1], sys.argv[2])", dir.toString(), name);
  }

  /** Whether {@code dir} exists. */
  static boolean exists(Path dir) {
    return Files.isDirectory(dir);
  }
}
