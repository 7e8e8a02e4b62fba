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

  /**
   * What a program that follows the README's "Use it" runs with: lmctfy-systemd's jar and what
   * Maven resolves for it at run time ({@code target/runtime-classpath.txt}: lmctfy-core, Jackson,
   * JNA, JSpecify, dbus-java, the SLF4J API and no provider), then the program, {@link
   * SystemdScenario}, alone in a directory: no test library, no lmctfy-testing.
   */
  static String classPath() throws IOException {
    Path target = moduleTarget();
    return withProgram(artifactOf(target), target);
  }

  /**
   * The same program with lmctfy-core alone: core's jar and what Maven resolves for lmctfy-core at
   * run time (its own {@code target/runtime-classpath.txt}): no lmctfy-systemd, no dbus-java.
   */
  static String coreOnlyClassPath() throws IOException {
    Path core = moduleTarget().getParent().resolveSibling("lmctfy-core").resolve("target");
    return withProgram(artifactOf(core), core);
  }

  private static String withProgram(Path artifact, Path target) throws IOException {
    Path file = target.resolve("runtime-classpath.txt");
    if (!Files.isRegularFile(file)) {
      throw new AssertionError(file + " is missing: build first (mvn -B -DskipTests package)");
    }
    List<String> out = new ArrayList<>(List.of(artifact.toString()));
    for (String entry : Files.readString(file).strip().split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        out.add(Path.of(entry).toAbsolutePath().toString());
      }
    }
    out.add(program().toString());
    return String.join(File.pathSeparator, out);
  }

  /** The module's target folder: where its test classes are. */
  private static Path moduleTarget() {
    try {
      return Path.of(
              SystemdScenario.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toAbsolutePath()
          .getParent();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The module's jar where the build packaged it (what a user gets), else its classes. */
  private static Path artifactOf(Path target) throws IOException {
    String module = target.getParent().getFileName().toString();
    try (var files = Files.list(target)) {
      List<Path> jars =
          files
              .filter(
                  p -> p.getFileName().toString().matches(module + "-[0-9][^-]*(-SNAPSHOT)?\\.jar"))
              .toList();
      if (jars.size() == 1) {
        return jars.get(0);
      }
    }
    return target.resolve("classes");
  }

  /**
   * The program the tests run: {@link SystemdScenario}'s classes, copied into a folder of their own
   * that every user may read.
   */
  private static synchronized Path program() throws IOException {
    Path dir = Path.of("/tmp/lmctfy-test-scenario");
    String pkg = SystemdScenario.class.getPackageName().replace('.', '/');
    Files.createDirectories(dir.resolve(pkg));
    try (var classes = Files.list(moduleTarget().resolve("test-classes").resolve(pkg))) {
      for (Path c : classes.toList()) {
        String name = c.getFileName().toString();
        if (name.equals("SystemdScenario.class") || name.startsWith("SystemdScenario$")) {
          Path copy = dir.resolve(pkg).resolve(name);
          Files.copy(c, copy, StandardCopyOption.REPLACE_EXISTING);
          Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-r--r--"));
        }
      }
    }
    for (Path p = dir.resolve(pkg); p.startsWith(dir); p = p.getParent()) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return dir;
  }

  /**
   * {@code classPath} readable by {@link #USER}: entries under {@code /root} (the Maven repository;
   * {@code /root} is 0700) copied into a directory everyone may read.
   */
  static String classPathForUser(Path dir, String classPath) throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    List<String> out = new ArrayList<>();
    int i = 0;
    for (String entry : classPath.split(File.pathSeparator)) {
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
   * {@code command} in a login session of {@link #USER}: {@code runuser -l} opens one through PAM,
   * where pam_systemd registers it with logind (which sets XDG_RUNTIME_DIR), as a user who logs in
   * gets. The shell prints the session first ({@code session.id}, {@code session.list} from {@code
   * loginctl list-sessions}, {@code session.Class}...), and once the program has exited, still in
   * the session, the {@code lmctfy*} units of the user's manager and of PID 1 ({@code
   * after.user.units}, {@code after.system.units}; a unit that is stopping is waited for, 10 s).
   */
  static Result inLoginSession(List<String> command) throws IOException, InterruptedException {
    StringBuilder program = new StringBuilder();
    for (String arg : command) {
      program.append('\'').append(arg.replace("'", "'\\''")).append("' ");
    }
    String script =
        String.join(
            "\n",
            "echo \"session.id=$XDG_SESSION_ID\"",
            "echo \"session.runtime=$XDG_RUNTIME_DIR\"",
            "echo \"session.list=$(loginctl list-sessions --no-legend"
                + " | tr -s ' ' | tr '\\n' ';')\"",
            "loginctl show-session \"$XDG_SESSION_ID\" -p Name -p Class -p Type -p State"
                + " | sed 's/^/session./'",
            program + "; rc=$?",
            "units() { systemctl \"$@\" list-units --all --plain --no-legend 'lmctfy*'"
                + " | awk '{print $1}' | tr '\\n' ' '; }",
            "for i in $(seq 100); do [ -z \"$(units --user)\" ] && break; sleep 0.1; done",
            "echo \"after.user.units=$(units --user)\"",
            "echo \"after.system.units=$(units)\"",
            "exit $rc");
    return run("runuser", "-l", USER, "-c", script);
  }

  /**
   * {@code command} as the service {@code unit} of {@link #USER}'s own manager: {@code systemd-run
   * --user} run as that user (setpriv: no PAM, no session), with the variables a user's shell has
   * ({@code XDG_RUNTIME_DIR}, {@code DBUS_SESSION_BUS_ADDRESS}); waited for, its output piped back.
   */
  static Result inUserService(String unit, List<String> command)
      throws IOException, InterruptedException {
    List<String> run = new ArrayList<>(asTheUser());
    run.addAll(
        List.of(
            "systemd-run",
            "--user",
            "--unit=" + unit,
            "--wait",
            "--pipe",
            "--collect",
            "--quiet",
            "-p",
            "Type=exec"));
    run.addAll(command);
    return run(run);
  }

  /** The prefix that runs a command as {@link #USER} with its manager's variables, without PAM. */
  private static List<String> asTheUser() {
    String runtime = "/run/user/" + UID;
    return List.of(
        "setpriv",
        "--reuid=" + UID,
        "--regid=" + UID,
        "--clear-groups",
        "env",
        "-i",
        "PATH=/usr/local/bin:/usr/bin:/bin",
        "HOME=/run/lmctfy-user",
        "XDG_RUNTIME_DIR=" + runtime,
        "DBUS_SESSION_BUS_ADDRESS=unix:path=" + runtime + "/bus");
  }

  /** The guest's job: its unit and target, which {@code lmctfy*} matches too. */
  static final List<String> JOB_UNITS = List.of("lmctfy-ci.service", "lmctfy-ci.target");

  /**
   * {@code systemctl list-units --all 'lmctfy*'} of PID 1, without the guest's job ({@link
   * #JOB_UNITS}).
   */
  static List<String> systemUnits() throws IOException, InterruptedException {
    Result r = run("systemctl", "list-units", "--all", "--plain", "--no-legend", "lmctfy*");
    assertThat(r.status()).as(r.output()).isZero();
    return unitNames(r.output()).stream().filter(u -> !JOB_UNITS.contains(u)).toList();
  }

  /** {@code systemctl --user list-units --all 'lmctfy*'} of {@link #USER}'s manager, which runs. */
  static List<String> userUnits() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(asTheUser());
    command.addAll(
        List.of("systemctl", "--user", "list-units", "--all", "--plain", "--no-legend", "lmctfy*"));
    Result r = run(command);
    assertThat(r.status()).as(r.output()).isZero();
    return unitNames(r.output());
  }

  /** The words of a printed value: the unit names of a {@code closed.system.units} line. */
  static List<String> words(String value) {
    return value.isBlank() ? List.of() : List.of(value.strip().split("\\s+"));
  }

  /** The first word of each line: the unit names of a {@code list-units --plain} listing. */
  static List<String> unitNames(String listing) {
    return listing
        .lines()
        .map(String::strip)
        .filter(l -> !l.isEmpty())
        .map(l -> l.split("\\s+")[0])
        .toList();
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
