package org.lmctfy.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The executor under a real systemd (the {@code systemd} guest of {@code .ci/kernel-vm}): a
 * NodeManager (a MiniYARNCluster in a child JVM, {@link YarnClusterJvm}) with lmctfy's default
 * driver, in an ordinary service and as a user with a user manager, gets its containers in the
 * delegated {@code lmctfy.service} with the allocation as their limit; a killed application leaves
 * no container, and once the NodeManager stops neither the unit nor its cgroup is left.
 */
@Tag("kernel")
@Tag("needs-systemd")
class KernelYarnSystemdTest {
  private static final int UID = 64990; // the guest's lmctfy-user

  private static String run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(20, TimeUnit.MINUTES)).isTrue();
    return "status=" + p.exitValue() + "\n" + output;
  }

  private static List<String> cluster(Path dir, String classPath) {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
        "-Dtest.build.data=" + dir.resolve("data"),
        "-cp",
        classPath,
        YarnClusterJvm.class.getName(),
        dir.toString());
  }

  /**
   * lmctfy-yarn/target: in a guest the host sees it (the project copy is shared), so a run can be
   * followed.
   */
  private static Path target() throws Exception {
    return Path.of(YarnClusterJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .getParent();
  }

  private static String absoluteClassPath() {
    List<String> out = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      out.add(Path.of(entry).toAbsolutePath().toString());
    }
    return String.join(File.pathSeparator, out);
  }

  private static void assertContainersIn(String output, String unitCgroup) {
    assertThat(output).startsWith("status=0").contains("left=[]", "stopped");
    List<String> ids =
        output
            .lines()
            .filter(l -> l.contains(":exit="))
            .map(l -> l.substring(0, l.indexOf(':')))
            .toList();
    assertThat(ids).hasSize(2);
    for (String id : ids) {
      assertThat(output).contains(id + ":exit=0", id + ":0::" + unitCgroup + "/hadoop-yarn/" + id);
      String allocation = value(output, id + ":allocation=");
      assertThat(value(output, id + ":memory.max=")).isEqualTo(allocation);
    }
  }

  private static String value(String output, String prefix) {
    return output
        .lines()
        .filter(l -> l.startsWith(prefix))
        .findFirst()
        .orElseThrow()
        .substring(prefix.length());
  }

  @Test
  void aNodeManagerInAPlainServiceGetsItsContainersInLmctfyServiceAndLeavesNoUnit()
      throws Exception {
    Path dir = Files.createTempDirectory(target(), "systemd-plain");
    List<String> command =
        new ArrayList<>(
            List.of(
                "systemd-run",
                "--unit=lmctfy-test-yarn.service",
                "--wait",
                "--pipe",
                "--collect",
                "--quiet",
                "-p",
                "Type=exec",
                "-p",
                "WorkingDirectory=" + dir,
                "-E",
                "LMCTFY_TEST_SCALE=" + KernelYarnClusterTest.scale()));
    command.addAll(cluster(dir, absoluteClassPath())); // a unit's process starts in /
    String output = run(command);
    System.out.println(output);
    assertContainersIn(output, "/system.slice/lmctfy.service");
    assertThat(run(List.of("systemctl", "show", "-p", "LoadState", "lmctfy.service")))
        .contains("LoadState=not-found");
    assertThat(Path.of("/sys/fs/cgroup/system.slice/lmctfy.service")).doesNotExist();
  }

  @Test
  void aUsersNodeManagerGetsItsContainersInItsManagersLmctfyService() throws Exception {
    Path dir = Files.createTempDirectory(target(), "systemd-user");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    List<String> classPath = new ArrayList<>();
    int i = 0;
    for (String entry : absoluteClassPath().split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (p.startsWith("/root") && Files.isRegularFile(p)) { // /root is 0700
        Path copy = dir.resolve((i++) + "-" + p.getFileName());
        Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING);
        classPath.add(copy.toString());
      } else {
        classPath.add(p.toString());
      }
    }
    run(List.of("chmod", "-R", "a+rX", dir.toString()));
    run(List.of("systemctl", "start", "user@" + UID + ".service"));
    Path work = Files.createDirectories(dir.resolve("work"));
    run(List.of("chown", UID + ":" + UID, work.toString()));
    List<String> command =
        new ArrayList<>(
            List.of(
                "systemd-run",
                "--unit=lmctfy-test-yarn-user.service",
                "--wait",
                "--pipe",
                "--collect",
                "--quiet",
                "-p",
                "Type=exec",
                "--uid=" + UID,
                "--gid=" + UID,
                "-p",
                "WorkingDirectory=" + work,
                "-E",
                "LMCTFY_TEST_SCALE=" + KernelYarnClusterTest.scale(),
                "-E",
                "XDG_RUNTIME_DIR=/run/user/" + UID,
                "-E",
                "HOME=/run/lmctfy-user"));
    command.addAll(cluster(work, String.join(File.pathSeparator, classPath)));
    String output = run(command);
    System.out.println(output);
    String unit =
        "/user.slice/user-" + UID + ".slice/user@" + UID + ".service/app.slice/lmctfy.service";
    assertContainersIn(output, unit);
    assertThat(Path.of("/sys/fs/cgroup" + unit)).doesNotExist();
  }
}
