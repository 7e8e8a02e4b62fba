package org.lmctfy.kernel.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.internal.host.MachineLacks.assumeHas;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ListPolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.kernel.launch.Launcher;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.support.ChildJvms;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The launcher against a hostile environment (issue 14): every hook a shell or the dynamic loader
 * takes from the environment is set, each writing the cgroups of the process it runs in to a file.
 * Before placement nothing of the environment may run; after it, the program must get exactly the
 * environment it was given, nothing added or changed. Through {@code run} (the host's {@code
 * /bin/sh}) and through the launcher with each shell that can be {@code /bin/sh}: dash, bash and,
 * where installed, busybox.
 */
@Tag("kernel")
class KernelLauncherTest extends ApiOnScratch {
  static Path hook;

  Container job;
  @TempDir Path evidence;

  KernelLauncherTest() {
    super(ContractBackend.host());
  }

  /**
   * A preload library whose constructor writes the exe and {@code /proc/self/cgroup} to a new file
   * in HOOK_DIR.
   */
  @BeforeAll
  static void compileThePreloadHook(@TempDir Path dir) throws Exception {
    Path source =
        Files.writeString(
            dir.resolve("hook.c"),
            String.join(
                "\n",
                "#include <fcntl.h>",
                "#include <stdio.h>",
                "#include <stdlib.h>",
                "#include <unistd.h>",
                "__attribute__((constructor)) static void hook(void) {",
                "  const char *dir = getenv(\"HOOK_DIR\");",
                "  if (!dir) return;",
                "  char path[4096], exe[4096], buf[8192];",
                "  int out = -1;", // one file per load: an exec keeps the pid
                "  for (int i = 0; out < 0 && i < 100; i++) {",
                "    snprintf(path, sizeof path, \"%s/preload.%d.%d\", dir, (int) getpid(), i);",
                "    out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);",
                "  }",
                "  ssize_t n = readlink(\"/proc/self/exe\", exe, sizeof exe - 1);",
                "  if (n > 0) { exe[n] = '\\n'; write(out, exe, n + 1); }",
                "  int in = open(\"/proc/self/cgroup\", O_RDONLY);",
                "  while ((n = read(in, buf, sizeof buf)) > 0) write(out, buf, n);",
                "  close(in);",
                "  close(out);",
                "}",
                ""));
    hook = dir.resolve("hook.so");
    Process cc;
    try {
      cc =
          new ProcessBuilder("cc", "-shared", "-fPIC", "-o", hook.toString(), source.toString())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      assumeHas(
          false,
          "this test needs a C compiler (cc, from Debian's gcc) to build its LD_PRELOAD hook: "
              + e.getMessage());
      throw e;
    }
    String out = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(cc.waitFor()).as("cc: " + out).isZero();
  }

  @BeforeEach
  void makeTheJob() throws IOException {
    job = api.create("/job", ContainerSpec.empty());
  }

  @AfterEach
  void killWhatIsLeft() {
    if (api != null) {
      api.get("/").killAll();
    }
  }

  /**
   * Shell hooks and loader hooks, each leaving its cgroups in {@code evidence}, and names a shell
   * owns.
   */
  private Map<String, String> hostile() throws IOException {
    Path script =
        Files.writeString(
            evidence.resolve("hook.sh"), "cat /proc/$$/cgroup > \"$HOOK_DIR/shell-hook.$$\"\n");
    String func = "() { cat /proc/$$/cgroup > \"$HOOK_DIR/function.$$\"; }";
    Map<String, String> env = new LinkedHashMap<>();
    env.put("HOOK_DIR", evidence.toString());
    env.put("LD_PRELOAD", hook.toString());
    env.put("BASH_ENV", script.toString());
    env.put("ENV", script.toString());
    for (String f :
        List.of(
            "read", "echo", "printf", "true", "export", "unset", "eval", "set", "exec", "[", "test",
            "shift", "cat")) {
      env.put("BASH_FUNC_" + f + "%%", func);
    }
    env.put("SHELLOPTS", "xtrace:verbose");
    env.put("BASHOPTS", "extdebug");
    env.put("PS4", "$(cat /proc/$$/cgroup > \"$HOOK_DIR/ps4.$$\")+ ");
    env.put("IFS", " x/");
    env.put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
    // names a shell sets, changes or refuses; odd names; values a shell could mangle
    env.put("PWD", "/nonexistent/given");
    env.put("OLDPWD", "/old");
    env.put("SHLVL", "42");
    env.put("_", "/given/underscore");
    env.put("UID", "12345");
    env.put("PPID", "1");
    env.put("RANDOM", "7");
    env.put("LINENO", "9");
    env.put("SECONDS", "5");
    env.put("OPTIND", "3");
    env.put("LMCTFY_X0", "not the launcher's");
    env.put("LMCTFY_env", "/bin/false");
    env.put("LMCTFY_i", "x");
    env.put("a-b", "dash");
    env.put("weird.name", "dot");
    env.put("1abc", "digit first");
    env.put("empty", "");
    env.put("lines", "one\ntwo\n");
    env.put("equals", "x=y=z");
    env.put("quote", "'\"$(echo no)`echo no` \\");
    env.put("unicode", "ü€");
    return env;
  }

  /** The NUL-separated output of {@code env -0}, as a map. */
  private static Map<String, String> parse(byte[] envDashZero) {
    Map<String, String> out = new TreeMap<>();
    for (String entry : new String(envDashZero, StandardCharsets.UTF_8).split("\0")) {
      if (!entry.isEmpty()) {
        int eq = entry.indexOf('=');
        out.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    return out;
  }

  /** What differs between the environment given and the one the program got. */
  private static List<String> diff(Map<String, String> given, Map<String, String> got) {
    List<String> out = new ArrayList<>();
    new TreeMap<>(given)
        .forEach(
            (k, v) -> {
              if (!got.containsKey(k)) {
                out.add("missing " + k + "=" + v);
              } else if (!got.get(k).equals(v)) {
                out.add("changed " + k + "=" + v + " to " + got.get(k));
              }
            });
    got.forEach(
        (k, v) -> {
          if (!given.containsKey(k)) {
            out.add("added " + k + "=" + v);
          }
        });
    return out;
  }

  private List<Hierarchy> managed() {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
        .toList();
  }

  private CgroupPath jobPath() {
    return CgroupPath.of("/job").under(scratch.path());
  }

  /**
   * Every evidence file shows the process that wrote it inside the container in every hierarchy.
   */
  private List<String> evidenceOutside() throws IOException {
    List<String> outside = new ArrayList<>();
    try (Stream<Path> files = Files.list(evidence)) {
      for (Path f :
          files
              .filter(
                  f -> f.getFileName().toString().matches("(preload|shell-hook|function|ps4)\\..*"))
              .toList()) {
        String text = Files.readString(f);
        for (Hierarchy h : managed()) {
          boolean inside =
              text.lines()
                  .anyMatch(
                      l ->
                          (h.version() == CgroupVersion.V2
                                  ? l.startsWith("0::")
                                  : l.contains(":" + h.name() + ":"))
                              && l.endsWith(":" + jobPath().value()));
          if (!inside) {
            outside.add(f.getFileName() + " (" + h.label() + "):\n" + text);
            break;
          }
        }
      }
    }
    return outside;
  }

  private long preloadsOf(String exe) throws IOException {
    try (Stream<Path> files = Files.list(evidence)) {
      return files
          .filter(f -> f.getFileName().toString().startsWith("preload."))
          .filter(
              f -> {
                try {
                  return Files.readString(f).startsWith(exe + "\n");
                } catch (IOException e) {
                  throw new AssertionError(e);
                }
              })
          .count();
    }
  }

  @Test
  void runGivesTheProgramExactlyAHostileEnvironmentAndNothingOfItRunsOutside() throws Exception {
    Map<String, String> env = hostile();
    ContainerProcess p =
        job.run(
            List.of("/usr/bin/env", "-0"),
            RunSpec.builder().environment(env).stderr("/dev/null").build());
    byte[] out = p.stdout().readAllBytes();
    assertThat(p.waitFor()).isZero();
    assertThat(evidenceOutside()).as("hooks that ran outside the container").isEmpty();
    assertThat(diff(env, parse(out))).isEmpty();
    assertThat(preloadsOf("/usr/bin/env"))
        .as("the program's own LD_PRELOAD ran (inside)")
        .isPositive();
  }

  @Test
  void aDetachedRunAndAUseShellRunKeepTheirHooksInside() throws Exception {
    Map<String, String> env = hostile();
    Path out = evidence.resolve("out");
    ContainerProcess detached =
        job.run(
            List.of("/usr/bin/env", "-0"),
            RunSpec.builder()
                .fdPolicy(RunSpec.FdPolicy.DETACHED)
                .environment(env)
                .stdout(out.toString())
                .build());
    assertThat(detached.waitFor(Duration.ofSeconds(30))).hasValue(0);
    assertThat(diff(env, parse(Files.readAllBytes(out)))).isEmpty();
    ContainerProcess shell =
        job.run(
            List.of("echo", "hi"),
            RunSpec.builder().environment(env).stderr("/dev/null").useShell(true).build());
    shell.stdout().readAllBytes();
    assertThat(shell.waitFor(Duration.ofSeconds(30))).isPresent();
    assertThat(evidenceOutside()).as("hooks that ran outside the container").isEmpty();
  }

  @Test
  void anInheritedEnvironmentReachesTheProgramExactly() throws Exception {
    ContainerProcess p = job.run(List.of("/usr/bin/env", "-0"), RunSpec.inherit());
    byte[] out = p.stdout().readAllBytes();
    assertThat(p.waitFor()).isZero();
    assertThat(diff(System.getenv(), parse(out))).isEmpty();
  }

  @Test
  void anEmptyEnvironmentStaysEmpty() throws Exception {
    ContainerProcess p =
        job.run(List.of("/usr/bin/env", "-0"), RunSpec.builder().environment(Map.of()).build());
    byte[] out = p.stdout().readAllBytes();
    assertThat(p.waitFor()).isZero();
    assertThat(diff(Map.of(), parse(out))).isEmpty();
  }

  /** The shells that can be /bin/sh on a Linux machine, where installed (dash and bash must be). */
  static List<String> shells() {
    List<String> out = new ArrayList<>(List.of("/bin/dash", "/bin/bash"));
    for (String busybox : List.of("/bin/busybox", "/usr/bin/busybox")) {
      if (Files.isExecutable(Path.of(busybox))) {
        out.add(busybox); // started as "busybox -c ...": its ash
        break;
      }
    }
    return out;
  }

  /**
   * The gate's pipe reaches no process but the launcher and the JVM: when the JVM dies after the
   * placement, before the gate opens, the launcher reads end-of-file and ends without running the
   * program.
   */
  @Test
  void aLauncherWhoseJvmDiesBeforeTheGateOpensEndsWithoutRunningTheProgram() throws Exception {
    Path marker = evidence.resolve("ran");
    Path output = evidence.resolve("jvm.out");
    List<String> args = new ArrayList<>(List.of(jobPath().value(), marker.toString()));
    managed().forEach(h -> args.add(h.label()));
    Process jvm =
        ChildJvms.start(
            ChildJvms.java("-XX:+UseSerialGC", DyingJvm.class, args.toArray(String[]::new)),
            output);
    assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String printed = Files.readString(output);
    assertThat(printed).as(printed).startsWith("gate ");
    long gate = Long.parseLong(printed.lines().findFirst().orElseThrow().substring(5).strip());
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (waitsAtTheGate(gate) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(waitsAtTheGate(gate))
        .as("the launcher " + gate + " still waits at a gate whose writer is dead")
        .isFalse();
    assertThat(marker).as("the program ran").doesNotExist();
    assertThat(job.listProcesses(ListPolicy.SELF)).as("left in the container").isEmpty();
  }

  /** Whether {@code pid} is still a launcher (its {@code $0} is {@code lmctfy-launch}). */
  private static boolean waitsAtTheGate(long pid) {
    return ProcessHandle.of(pid)
        .flatMap(h -> h.info().arguments())
        .filter(a -> List.of(a).contains("lmctfy-launch"))
        .isPresent();
  }

  @ParameterizedTest
  @MethodSource("shells")
  void withEachShellTheLauncherRunsNoHookOutsideAndGivesTheExactEnvironment(String shellPath)
      throws Exception {
    Map<String, String> env = hostile();
    Map<Hierarchy, CgroupPath> cgroups = new LinkedHashMap<>();
    managed().forEach(h -> cgroups.put(h, jobPath()));
    Launcher.Shell shell =
        shellPath.endsWith("busybox")
            ? new Launcher.Shell(shellPath, false, List.of("sh"))
            : Launcher.Shell.of(shellPath);
    for (Map<String, String> e : List.of(env, Map.of("ONLY", "one"), Map.<String, String>of())) {
      ProcessBuilder pb =
          new ProcessBuilder("/usr/bin/env", "-0").redirectError(ProcessBuilder.Redirect.DISCARD);
      pb.environment().clear();
      pb.environment().putAll(e);
      Process p = Launcher.start(fs, pb, cgroups, shell);
      byte[] out = p.getInputStream().readAllBytes();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(diff(e, parse(out))).as(shellPath + " with " + e.keySet()).isEmpty();
    }
    assertThat(evidenceOutside())
        .as("hooks that ran outside the container, " + shellPath)
        .isEmpty();
    assertThat(preloadsOf("/usr/bin/env")).isPositive();
  }
}
