package org.lmctfy.systemd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The machine of the tests tagged {@code needs-systemd}: systemd as PID 1 on cgroup v2 (the {@code
 * systemd} guest of {@code .ci/kernel-vm}; the kernel test rule runs them there only), root, {@code
 * systemctl} and {@code systemd-run} to arrange units and look at them, and the guest's user {@code
 * lmctfy-user} (uid {@value #UID}). A child JVM runs {@link SystemdScenario} in a unit of the
 * test's choosing.
 */
final class SystemdGuest {
  static final int UID = 64990;
  static final String USER = "lmctfy-user";
  static final Path CGROUP = Path.of("/sys/fs/cgroup");

  private SystemdGuest() {}

  /** A command's exit code and output (stdout and stderr together). */
  record Result(int status, String output) {
    /** The value of the first {@code key=value} line. */
    String value(String key) {
      for (String line : output.lines().toList()) {
        if (line.startsWith(key + "=")) {
          return line.substring(key.length() + 1);
        }
      }
      throw new AssertionError("no line " + key + "= in:\n" + output);
    }

    /** Every {@code key=value} line. */
    Map<String, String> values() {
      Map<String, String> out = new LinkedHashMap<>();
      for (String line : output.lines().toList()) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          out.putIfAbsent(line.substring(0, eq), line.substring(eq + 1));
        }
      }
      return out;
    }
  }

  static Result run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("still running after 10 minutes: " + command);
    }
    return new Result(p.exitValue(), output);
  }

  static Result run(String... command) throws IOException, InterruptedException {
    return run(List.of(command));
  }

  /** {@code java -cp <this test's class path> SystemdScenario args} as a command. */
  static List<String> scenario(String classPath, String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                classPath,
                SystemdScenario.class.getName()));
    command.addAll(List.of(args));
    return command;
  }

  /** The test's class path with absolute entries (a unit's process starts in /). */
  static String classPath() {
    List<String> out = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      out.add(Path.of(entry).toAbsolutePath().toString());
    }
    return String.join(File.pathSeparator, out);
  }

  /**
   * The test's class path readable by {@link #USER}: entries under {@code /root} (the Maven
   * repository; {@code /root} is 0700) copied into a directory everyone may read.
   */
  static String classPathForUser(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<String> out = new ArrayList<>();
    int i = 0;
    for (String entry : classPath().split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (entry.startsWith("/root/") && Files.isRegularFile(p)) {
        Path copy = dir.resolve((i++) + "-" + p.getFileName());
        Files.copy(p, copy, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
        out.add(copy.toString());
      } else {
        out.add(entry);
      }
    }
    return String.join(File.pathSeparator, out);
  }

  /**
   * {@code systemd-run} of {@code command} as the transient service {@code unit} with {@code
   * properties} (none: a plain service, no {@code Delegate=}), waited for, its output piped back.
   */
  static Result inUnit(String unit, List<String> properties, List<String> command)
      throws IOException, InterruptedException {
    List<String> run =
        new ArrayList<>(
            List.of(
                "systemd-run",
                "--unit=" + unit,
                "--wait",
                "--pipe",
                "--collect",
                "--quiet",
                "-p",
                "Type=exec"));
    for (String p : properties) {
      run.add("-p");
      run.add(p);
    }
    run.addAll(command);
    return run(run);
  }

  /**
   * {@link #inUnit} as {@link #USER}, with its XDG_RUNTIME_DIR, as a service running as that user
   * does.
   */
  static Result asUser(String unit, List<String> command) throws IOException, InterruptedException {
    List<String> run =
        new ArrayList<>(
            List.of(
                "systemd-run",
                "--unit=" + unit,
                "--wait",
                "--pipe",
                "--collect",
                "--quiet",
                "-p",
                "Type=exec",
                "--uid=" + UID,
                "--gid=" + UID,
                "-E",
                "XDG_RUNTIME_DIR=/run/user/" + UID,
                "-E",
                "HOME=/run/lmctfy-user"));
    run.addAll(command);
    return run(run);
  }

  /**
   * Runs {@code start} (a {@code systemd-run --unit=unit} of the scenario {@code loop}, which
   * writes {@code ready} once its API is open), waits for {@code ready}, SIGKILLs the unit at a
   * random instant within 1.5 s, waits for it to end and resets it (the killed JVM's own unit, not
   * lmctfy's).
   */
  static void killAtRandomInstant(String unit, List<String> start, Path ready) throws Exception {
    assertThat(run(start).status()).isZero();
    for (int waited = 0; !Files.exists(ready) && waited < 1200; waited++) {
      Thread.sleep(100);
    }
    assertThat(ready).as("the JVM of %s started", unit).exists();
    Thread.sleep(ThreadLocalRandom.current().nextInt(1, 1500));
    run("systemctl", "kill", "--signal=SIGKILL", unit);
    for (int waited = 0; waited < 300; waited++) {
      String state = show(unit, "ActiveState").get("ActiveState");
      if (!"active".equals(state) && !"deactivating".equals(state)) {
        break;
      }
      Thread.sleep(100);
    }
    run("systemctl", "reset-failed", unit);
  }

  /** {@code systemctl show -p P1 -p P2... unit} as a map. */
  static Map<String, String> show(String unit, String... properties)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("systemctl", "show", unit));
    for (String p : properties) {
      command.add("-p");
      command.add(p);
    }
    return run(command).values();
  }

  static String read(String cgroup, String file) throws IOException {
    return Files.readString(CGROUP.resolve(cgroup.substring(1)).resolve(file)).strip();
  }

  static boolean exists(String cgroup) {
    return Files.isDirectory(CGROUP.resolve(cgroup.substring(1)));
  }
}
