package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeRun;
import org.lmctfy.testing.internal.host.MachineLacks;
import org.lmctfy.testing.junit.ScratchCgroups;

public class VirtualHostTest {
  @Test
  void onTheFakeTheProgramJoinsTheVirtualHostAndNothingIsLeft() throws Exception {
    FakeCgroupFs fs = FakeCgroupFs.create();
    java.util.Set<Long> before = fs.processes().living();
    List<String> commands = new ArrayList<>();
    fs.processes()
        .onRun(
            command -> {
              commands.add(command.toString());
              return command.get(0).equals("/bin/sh") ? FakeRun.exits(0).writes("vh\n") : null;
            });

    int code = VirtualHost.machine(ContainerApi.open(fs), "/srv/vh", new ByteArrayOutputStream());

    assertThat(code).isZero();
    assertThat(commands)
        .containsExactly("[catatonit, -P]", "[/bin/sh, -c, hostname; echo $$; cat /proc/net/dev]");
    CgroupAssertions.assertThat(fs).hasNoCgroupsButTheRoots();
    assertThat(fs.processes().living()).as("the init is gone").isEqualTo(before);
  }

  @Tag("kernel")
  @Test
  void onThisMachineTheProgramSeesTheVirtualHostsNameItsPidAndOnlyLoopback() throws Exception {
    Path rootfs = busyboxRoot();
    try (ScratchCgroups scratch = ScratchCgroups.onHost();
        ContainerApi api = ContainerApi.open(scratch.fs(), scratch.path())) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();

      assertThat(VirtualHost.machine(api, rootfs.toString(), out)).isZero();

      List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
      assertThat(lines.subList(0, 2)).containsExactly("vh", "2");
      assertThat(
              lines.stream()
                  .filter(l -> l.contains(":") && !l.contains("|"))
                  .map(l -> l.split(":")[0].strip()))
          .containsExactly("lo");
      assertThat(api.exists("/vh")).isFalse();
    } finally {
      delete(rootfs);
    }
  }

  /**
   * A root from Debian's busybox-static: /bin/busybox, /bin/sh and cat linked to it, /proc and
   * /dev.
   */
  public static Path busyboxRoot() throws Exception {
    Path busybox = Path.of("/bin/busybox");
    MachineLacks.assumeHas(
        Files.isExecutable(busybox),
        "the virtual host's root is made from " + busybox + " (Debian's busybox-static)");
    Path root = Files.createTempDirectory(Path.of("/tmp"), "lmctfy-vhroot");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String dir : List.of("bin", "proc", "dev", "tmp")) {
      Files.createDirectories(root.resolve(dir));
    }
    Files.copy(busybox, root.resolve("bin/busybox"), StandardCopyOption.COPY_ATTRIBUTES);
    for (String applet : List.of("sh", "cat", "hostname", "ls", "grep", "echo", "mount")) {
      Files.createSymbolicLink(root.resolve("bin").resolve(applet), Path.of("busybox"));
    }
    return root;
  }

  public static void delete(Path dir) throws Exception {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
