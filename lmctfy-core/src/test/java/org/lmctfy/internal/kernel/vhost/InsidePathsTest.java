package org.lmctfy.internal.kernel.vhost;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InsidePathsTest {
  @Test
  void anAbsoluteLinkStartsAgainAtTheRootNotAtTheHosts(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("usr/bin"));
    Files.createSymbolicLink(root.resolve("bin"), Path.of("/usr/bin"));
    Files.createSymbolicLink(
        root.resolve("etc"), Path.of("/etc")); // /etc is the host's, not the root's

    assertThat(InsidePaths.resolve(root, "/", "/bin")).isEqualTo("/usr/bin");
    assertThat(InsidePaths.isDirectory(root, "/", "/bin")).isTrue();
    assertThat(InsidePaths.resolve(root, "/", "/etc/passwd")).isNull();
  }

  @Test
  void dotDotStopsAtTheRootAndRelativePathsStartAtTheDirectory(@TempDir Path root)
      throws Exception {
    Files.createDirectories(root.resolve("srv/data"));
    assertThat(InsidePaths.resolve(root, "/", "/../../srv")).isEqualTo("/srv");
    assertThat(InsidePaths.resolve(root, "/srv", "data")).isEqualTo("/srv/data");
    assertThat(InsidePaths.resolve(root, "/srv", "../srv/./data")).isEqualTo("/srv/data");
  }

  @Test
  void aLinkLoopIsNoPath(@TempDir Path root) throws Exception {
    Files.createSymbolicLink(root.resolve("a"), Path.of("b"));
    Files.createSymbolicLink(root.resolve("b"), Path.of("/a"));
    assertThat(InsidePaths.resolve(root, "/", "/a")).isNull();
  }

  @Test
  void aProgramIsFoundOnThePathAsExecvpFindsIt(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("bin"));
    Files.createDirectories(root.resolve("opt"));
    Path busybox = Files.writeString(root.resolve("bin/busybox"), "");
    Files.setPosixFilePermissions(busybox, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.createSymbolicLink(root.resolve("bin/sh"), Path.of("busybox"));
    Files.writeString(root.resolve("opt/notes"), "");

    assertThat(InsidePaths.findProgram(root, "/", "sh", Map.of())).isEqualTo("/bin/busybox");
    assertThat(InsidePaths.findProgram(root, "/", "/bin/sh", Map.of())).isEqualTo("/bin/busybox");
    assertThat(InsidePaths.findProgram(root, "/", "sh", Map.of("PATH", "/opt"))).isNull();
    assertThat(InsidePaths.findProgram(root, "/opt", "notes", Map.of("PATH", ".")))
        .as("not executable")
        .isNull();
    assertThat(InsidePaths.findProgram(root, "/", "java", Map.of())).isNull();
  }
}
