package org.lmctfy.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.examples.cli.Transcript.ok;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * {@code lmctfy run} on this machine's kernel, under a scratch root: the program's status is the
 * exit code, lmctfy's own failures say so on stderr, and a signal to a waiting lmctfy (a separate
 * JVM here, as a user runs it) goes to the program, leaving nothing running.
 */
@Tag("kernel")
class KernelRunCommandTest {
  /** Long enough never to end by itself while a test runs; the tests end it. */
  private static final String FOREVER = "600";

  @Test
  void sigtermToAWaitingRunEndsTheProgramAndTheExitCodeIs143() throws Exception {
    try (ScratchCgroups scratch = ScratchCgroups.onHost();
        Waiting run = Waiting.start(scratch, "sh", "-c", "echo ready; exec sleep " + FOREVER)) {
      ProgramSignals.kill(run.cli.pid(), "TERM"); // to lmctfy's JVM only, as kill(1) sends it
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(143);
      assertThat(run.program.isAlive()).as("the program after lmctfy ended").isFalse();
      assertThat(processesIn(scratch)).isEmpty();
      assertThat(run.stderr()).isEmpty();
    }
  }

  @Test
  void aProgramThatTrapsTermAndExits3MakesLmctfyExit3() throws Exception {
    try (ScratchCgroups scratch = ScratchCgroups.onHost();
        Waiting run =
            Waiting.start(
                scratch,
                "sh",
                "-c",
                "trap 'kill $!; exit 3' TERM; sleep " + FOREVER + " & echo ready; wait")) {
      ProgramSignals.kill(run.cli.pid(), "TERM");
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
      assertThat(run.stderr()).as("3 is the program's, not INVALID_ARGUMENT").isEmpty();
      assertThat(processesIn(scratch)).isEmpty();
    }
  }

  @ParameterizedTest
  @CsvSource({"INT, 130", "HUP, 129", "TERM, 143"})
  void intHupAndTermGoToTheProgramWhichEndsWithThem(String signal, int code) throws Exception {
    try (ScratchCgroups scratch = ScratchCgroups.onHost();
        Waiting run = Waiting.start(scratch, "sh", "-c", "echo ready; exec sleep " + FOREVER)) {
      ProgramSignals.kill(run.cli.pid(), signal);
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(code);
      assertThat(run.program.isAlive()).isFalse();
      assertThat(processesIn(scratch)).isEmpty();
    }
  }

  @Test
  void whenLmctfysOutputBreaksTheProgramsNextWriteFailsAsWithoutLmctfy() throws Exception {
    try (ScratchCgroups scratch = ScratchCgroups.onHost();
        Waiting run = Waiting.start(scratch, "sh", "-c", "echo ready; exec yes")) {
      run.stdout.close(); // lmctfy run /c yes | head -1
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(141); // 128 + SIGPIPE
      assertThat(run.program.isAlive()).isFalse();
      assertThat(processesIn(scratch)).isEmpty();
    }
  }

  @Test
  void theProgramsStatusIsTheExitCodeAndLmctfysFailuresPrintTheirLine() throws Exception {
    try (ScratchCgroups scratch = ScratchCgroups.onHost()) {
      Cli cli = Cli.real("--root", scratch.path().toString());
      Cli.Result programs = cli.run("run", "/", "sh", "-c", "echo out; echo err >&2; exit 5");
      assertThat(programs.code()).as(programs.toString()).isEqualTo(5);
      assertThat(programs.out()).isEqualTo("out\n");
      assertThat(programs.err()).isEqualTo("err\n");
      Cli.Result lmctfys = cli.run("run", "/nope", "true");
      assertThat(lmctfys.code()).isEqualTo(5);
      assertThat(lmctfys.err())
          .isEqualTo("Command exited with error message: 5: container /nope does not exist\n");
      assertThat(ok(cli.run("run", "/", "--", "sh", "-c", "exit 0")).err()).isEmpty();
      assertThat(processesIn(scratch)).isEmpty();
    }
  }

  @Test
  void aProgramNotOnPathIsNamedWithTheNumberOfDirectoriesSearchedNotThePath() throws Exception {
    try (ScratchCgroups scratch = ScratchCgroups.onHost()) {
      Cli.Result r =
          Cli.real("--root", scratch.path().toString()).run("run", "/", "lmctfy-no-such-program");
      String path = System.getenv("PATH");
      assertThat(r.code()).as(r.toString()).isEqualTo(3);
      assertThat(r.err())
          .isEqualTo(
              "Command exited with error message: 3: argv[0] lmctfy-no-such-program is not an "
                  + "executable file in any of the "
                  + path.split(":", -1).length
                  + " directories of the program's PATH; give "
                  + "its path, or a PATH that holds it\n")
          .doesNotContain(path);
      assertThat(processesIn(scratch)).isEmpty();
    }
  }

  @Test
  void aRootThatIsNotThereIsNotFound() throws Exception {
    try (ScratchCgroups scratch = ScratchCgroups.onHost()) {
      String nope = scratch.path().resolve("nope").toString();
      Cli.Result r = Cli.real("--root", nope).run("list", "containers", "/");
      assertThat(r.code()).as(r.toString()).isEqualTo(5);
      assertThat(r.out()).isEmpty();
      assertThat(r.err())
          .startsWith(
              "Command exited with error message: 5: --root "
                  + nope
                  + ": there is no cgroup "
                  + nope
                  + " (in none of the ");
    }
  }

  /** The pids in the scratch cgroup of a hierarchy that holds containers' processes. */
  private static List<String> processesIn(ScratchCgroups scratch) throws IOException {
    Hierarchy h =
        scratch.hierarchies().stream()
            .filter(x -> x.version() == CgroupVersion.V2 || x.has("pids") || x.has("memory"))
            .findFirst()
            .orElseThrow();
    return scratch.fs().read(h, scratch.path(), "cgroup.procs").lines().toList();
  }

  /**
   * {@code lmctfy --root <scratch> run / <program>} in a JVM of its own, in a session of its own
   * (no terminal: every INT is passed on) with INT, HUP and TERM at their defaults whatever this
   * JVM was started with; started once the program has printed its first line.
   */
  private record Waiting(Process cli, ProcessHandle program, BufferedReader stdout)
      implements AutoCloseable {
    static Waiting start(ScratchCgroups scratch, String... program) throws IOException {
      List<String> command =
          new ArrayList<>(
              List.of(
                  "setsid",
                  "env",
                  "--default-signal=INT,HUP,TERM",
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-XX:TieredStopAtLevel=1",
                  "-XX:+UseSerialGC",
                  "-cp",
                  System.getProperty("java.class.path"),
                  Lmctfy.class.getName(),
                  "--root",
                  scratch.path().toString(),
                  "run",
                  "/"));
      command.addAll(List.of(program));
      Process cli = new ProcessBuilder(command).start();
      BufferedReader stdout =
          new BufferedReader(new InputStreamReader(cli.getInputStream(), StandardCharsets.UTF_8));
      String first = stdout.readLine();
      if (!"ready".equals(first)) {
        cli.destroyForcibly();
        throw new AssertionError(
            "lmctfy run did not start the program: stdout "
                + first
                + ", stderr "
                + new String(cli.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
      }
      List<ProcessHandle> children =
          cli.children().toList(); // the launcher execs: the program is lmctfy's child
      assertThat(children).as("lmctfy's children").hasSize(1);
      return new Waiting(cli, children.get(0), stdout);
    }

    /**
     * Waits for lmctfy (a bound, not a timing check: a lmctfy that never ends fails here, and is
     * killed).
     */
    int exitCode() throws InterruptedException {
      if (!cli.waitFor(60, TimeUnit.SECONDS)) {
        throw new AssertionError("lmctfy run went on waiting after its signal");
      }
      return cli.exitValue();
    }

    /** Kills what a failed test left running, so that the scratch root can go. */
    @Override
    public void close() throws InterruptedException {
      program.destroyForcibly();
      cli.destroyForcibly();
      cli.waitFor();
    }

    String stderr() throws IOException {
      return new String(cli.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
