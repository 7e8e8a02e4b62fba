package org.lmctfy.kernel.vhost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.lmctfy.testing.internal.host.MachineLacks;

/**
 * A root filesystem for a test's virtual host, made from what the machine has (Debian's
 * busybox-static, a statically linked busybox), never downloaded: {@code /bin/busybox} with a link
 * per applet a test uses, and the directories a virtual host needs ({@code /proc}, {@code /dev}) or
 * a test binds onto ({@code /data}, {@code /tmp}).
 */
public final class BusyboxRoot {
  static final Path BUSYBOX = Path.of("/bin/busybox");
  private static final List<String> APPLETS =
      List.of(
          "sh",
          "cat",
          "echo",
          "hostname",
          "id",
          "ip",
          "ls",
          "mount",
          "readlink",
          "sleep",
          "true",
          "grep",
          "touch",
          "kill",
          "wc",
          "stat",
          "pwd");

  private BusyboxRoot() {}

  /** Skips unless the machine has a static busybox (Debian's busybox-static). */
  public static void assumeBusybox() {
    MachineLacks.assumeHas(
        Files.isExecutable(BUSYBOX),
        "these tests make their virtual hosts' root from "
            + BUSYBOX
            + " (Debian's busybox-static)");
  }

  /** A new root in {@code parent}, readable and searchable by everyone. */
  public static Path make(Path parent) throws IOException {
    Path root = Files.createTempDirectory(parent, "lmctfy-vhroot");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String dir : List.of("bin", "proc", "dev", "tmp", "data", "etc", "srv")) {
      Files.createDirectories(root.resolve(dir));
    }
    Files.setPosixFilePermissions(
        root.resolve("tmp"), PosixFilePermissions.fromString("rwxrwxrwx"));
    Files.copy(BUSYBOX, root.resolve("bin/busybox"), StandardCopyOption.COPY_ATTRIBUTES);
    for (String applet : APPLETS) {
      Files.createSymbolicLink(root.resolve("bin").resolve(applet), Path.of("busybox"));
    }
    Files.writeString(root.resolve("etc/hostname"), "from-the-rootfs\n");
    return root;
  }

  /** Removes {@code dir} and everything below it. */
  public static void delete(Path dir) throws IOException {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
