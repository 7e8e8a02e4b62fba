package org.lmctfy.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.examples.cli.Transcript.ok;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeCrash;
import org.lmctfy.testing.FakeLayout;

/**
 * The CLI's commands, options, output styles and exit codes, on one fake shared by the invocations
 * of a test.
 */
class CliTest {
  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
  private final Cli cli = Cli.on(new Backend(fs, null, true));

  private long newFakeProcess(Set<Long> before) throws InterruptedException {
    while (true) {
      Set<Long> now = new HashSet<>(fs.processes().living());
      now.removeAll(before);
      if (!now.isEmpty()) {
        return now.iterator().next();
      }
      Thread.sleep(5);
    }
  }

  @Test
  void listsPrintInEveryStyle() {
    ok(cli.run("create", "/a", ""));
    ok(cli.run("create", "/a/b", ""));
    ok(cli.run("create", "/a/c", ""));
    assertThat(ok(cli.run("list", "containers", "/a")).out())
        .isEqualTo("name=\"/a/b\"\nname=\"/a/c\"\n");
    assertThat(ok(cli.run("-v", "list", "containers", "-r", "/")).out())
        .isEqualTo("/a\n/a/b\n/a/c\n");
    assertThat(ok(cli.run("list", "containers", "/a", "-l")).out())
        .isEqualTo("                name | /a/b\n\n                name | /a/c\n\n");
    assertThat(ok(cli.run("list", "containers", "--json", "/a")).out())
        .isEqualTo("{\"name\":[\"/a/b\",\"/a/c\"]}\n");
    assertThat(ok(cli.run("list", "containers", "--json", "/a/b")).out())
        .isEqualTo("{\"name\":[]}\n");
  }

  @Test
  void aMistypedCommandGetsNotFoundAndHelpListsEveryCommand() {
    Cli.Result r = cli.run("craete", "/a");
    assertThat(r.code()).isEqualTo(5);
    assertThat(r.err()).contains("did you mean create?");
    assertThat(ok(cli.run("--help")).out())
        .contains("create", "destroy", "stats", "completion", "--fake-layout");
    Cli.Result sub = cli.run("list", "contianers");
    assertThat(sub.code()).isEqualTo(5);
    assertThat(sub.err())
        .contains(
            "unknown command 'contianers' for list; did you mean containers?",
            "See 'lmctfy list help'");
  }

  @Test
  void optionsComeBeforeOrAfterTheWordsInEveryForm() {
    ok(cli.run("create", "/a", ""));
    ok(cli.run("create", "/a/b", ""));
    assertThat(ok(cli.run("list", "containers", "-rv", "/")).out()).isEqualTo("/a\n/a/b\n");
    assertThat(
            ok(cli.run("--backend=host", "list", "containers", "--values", "--recursive", "/"))
                .out())
        .isEqualTo("/a\n/a/b\n");
    assertThat(ok(cli.run("list", "containers", "--", "/a")).out()).isEqualTo("name=\"/a/b\"\n");
    Cli.Result flagWithValue = cli.run("list", "containers", "--json=yes", "/");
    assertThat(flagWithValue.code()).isEqualTo(3);
    assertThat(flagWithValue.err())
        .contains("option '--json' takes no value", "Usage: lmctfy list containers");
    Cli.Result missingValue = cli.run("list", "containers", "/", "--root");
    assertThat(missingValue.code()).isEqualTo(3);
    assertThat(missingValue.err())
        .contains("Missing required parameter for option '--root' (<cgroup>)");
    Cli.Result unknown = cli.run("list", "containers", "-x", "/");
    assertThat(unknown.code()).isEqualTo(3);
    assertThat(unknown.err()).contains("Unknown option: '-x'");
    Cli.Result extra = cli.run("destroy", "/a/b", "/a");
    assertThat(extra.code()).isEqualTo(3);
    assertThat(extra.err()).contains("Unmatched argument at index 1: '/a'");
    Cli.Result notANumber = cli.run("detect", "12x");
    assertThat(notANumber.code()).isEqualTo(3);
    assertThat(notANumber.err()).contains("Invalid value for <pid>: '12x' is not an integer");
    assertThat(ok(cli.run("list", "containers", "-r", "/")).out())
        .isEqualTo("name=\"/a\"\nname=\"/a/b\"\n");
  }

  @Test
  void twoStylesAtOnceAreAnInvalidArgument() {
    Cli.Result r = cli.run("-v", "-l", "list", "containers", "/");
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.err())
        .isEqualTo(
            "Command exited with error message: 3: choose one output style of -p, -v, -l, --json\n");
  }

  @Test
  void aFailureGoesToStderrAsLmctfyPrintedItAndItsCodeIsTheExitCode() {
    Cli.Result r = cli.run("create", "/test/abhishek", "cpu { limit: 1000 }");
    assertThat(r.code()).isEqualTo(5);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("Command exited with error message: 5: ").contains("/test");
  }

  @Test
  void noFailureMessageSaysAWordTwice() throws Exception {
    ok(cli.run("create", "/a", ""));
    fs.makeCgroup(fs.hierarchies().get(0), CgroupPath.of("/partial")); // in one hierarchy of many
    fs.faults().crashAt(3);
    try {
      cli.run("create", "/unfinished", "cpu { limit: 500 } memory { limit: 104857600 }");
    } catch (FakeCrash expected) {
      // an interrupted create: its intent stays
    }
    fs.faults().recover();
    List<String[]> failing =
        List.of(
            new String[] {"create", "/nope/b", ""},
            new String[] {"create", "/partial/b", ""},
            new String[] {"create", "/unfinished/b", ""},
            new String[] {"create", "/a", ""},
            new String[] {"create", "/a b", ""},
            new String[] {"create", "/b", "cpu { limit: -5 }"},
            new String[] {"create", "/b", "memory { limit: 100000000 swap_limit: 5 }"},
            new String[] {"destroy", "/nope"},
            new String[] {"destroy", "/"},
            new String[] {"spec", "/partial"},
            new String[] {"stats", "summary", "/nope"},
            new String[] {"update", "diff", "/nope", ""},
            new String[] {"list", "pids", "/unfinished"},
            new String[] {"run", "-n", "/nope", "true"},
            new String[] {"enter", "/nope", "1"},
            new String[] {"pause", "/nope"},
            new String[] {"killall", "/nope"},
            new String[] {"detect", "999999"});
    for (String[] args : failing) {
      Cli.Result r = cli.run(args);
      assertThat(r.code()).as(String.join(" ", args)).isNotZero();
      assertThat(r.err())
          .as(String.join(" ", args))
          .doesNotContainPattern("(?i)\\b([a-z]+) \\1\\b");
    }
    assertThat(cli.run("create", "/nope/b", "").err())
        .contains(": parent container /nope does not exist");
  }

  @Test
  void aKernelRefusalNamesTheFileTheValueAndTheErrno() {
    ok(cli.run("create", "/a", ""));
    fs.faults()
        .failWhen(
            op -> op.file() != null && op.file().equals("memory.limit_in_bytes"),
            org.lmctfy.cgroupfs.Errno.EINVAL);
    Cli.Result r = cli.run("update", "diff", "/a", "memory { limit: 100000000 }");
    assertThat(r.code()).as(r.toString()).isEqualTo(3);
    assertThat(r.err())
        .startsWith("Command exited with error message: 3: ")
        .contains("memory.limit_in_bytes", "100000000", "EINVAL");
  }

  @Test
  void usageErrorsAreInvalidArgumentsAndUnknownCommandsNotFound() {
    Cli.Result missing = cli.run("create");
    assertThat(missing.code()).isEqualTo(3);
    assertThat(missing.err()).contains("Missing required parameter", "Usage: lmctfy create");
    Cli.Result unknown = cli.run("frobnicate");
    assertThat(unknown.code()).isEqualTo(5);
    assertThat(unknown.err())
        .startsWith("Command exited with error message: 5: unknown command 'frobnicate'");
    assertThat(cli.run("stats", "partial", "/").code()).isEqualTo(5);
    assertThat(cli.run("list").code()).isEqualTo(3);
  }

  @Test
  void aMistypedCommandGetsWhatItMayHaveMeantNotTheWholeUsage() {
    Cli.Result r = cli.run("craete", "/a");
    assertThat(r.code()).isEqualTo(5);
    assertThat(r.err())
        .startsWith(
            "Command exited with error message: 5: unknown command 'craete' for lmctfy;"
                + " did you mean create?")
        .doesNotContain("Usage:");
    assertThat(r.err().lines().count()).isEqualTo(2);
    assertThat(Lmctfy.nearest("pasue", java.util.List.of("pause", "resume", "spec")))
        .containsExactly("pause");
    assertThat(Lmctfy.nearest("frobnicate", java.util.List.of("pause", "run"))).isEmpty();
  }

  @Test
  void aFailurePrintsNoStackTraceUnlessDebugAsksForOne() {
    Cli broken =
        Cli.with(
            (kind, layout) -> {
              throw new IllegalStateException("a bug");
            });
    Cli.Result plain = broken.run("list", "containers", "/");
    assertThat(plain.code()).isEqualTo(13);
    assertThat(plain.err())
        .contains("a bug", "--debug prints the stack trace")
        .doesNotContain("\tat ");
    Cli.Result debug = broken.run("--debug", "list", "containers", "/");
    assertThat(debug.code()).isEqualTo(13);
    assertThat(debug.err()).contains("java.lang.IllegalStateException: a bug", "\tat ");
    assertThat(cli.run("destroy", "/nope").err()).doesNotContain("\tat ");
  }

  @Test
  void versionPrintsTheProjectVersion() {
    Cli.Result r = cli.run("--version");
    assertThat(r.code()).isZero();
    assertThat(r.out()).matches("lmctfy for Java \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n");
  }

  @Test
  void createTakesTheSpecInlineOrFromAFileButNotBoth(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("spec.json");
    Files.writeString(file, "{\"memory\": {\"limit\": 104857600}}");
    ok(cli.run("create", "-c", file.toString(), "/a"));
    assertThat(ok(cli.run("spec", "/a")).out()).contains("limit: 104857600");
    Cli.Result both = cli.run("create", "-c", file.toString(), "/b", "cpu { limit: 1 }");
    assertThat(both.code()).isEqualTo(3);
    assertThat(cli.run("create", "/b").code()).isEqualTo(3);
    assertThat(ok(cli.run("list", "containers", "/")).out()).isEqualTo("name=\"/a\"\n");
  }

  @Test
  void aSpecFileThatCannotBeReadIsNamedWithItsErrno(@TempDir Path dir) throws Exception {
    Cli.Result absent = cli.run("create", "-c", dir.resolve("nope").toString(), "/b");
    assertThat(absent.code()).as(absent.toString()).isEqualTo(5);
    assertThat(absent.err())
        .isEqualTo(
            "Command exited with error message: 5: cannot read the spec file "
                + dir.resolve("nope")
                + " (-c): ENOENT (No such file or directory)\n");
    Cli.Result directory = cli.run("update", "diff", "/", "-c", dir.toString());
    assertThat(directory.code()).as(directory.toString()).isEqualTo(3);
    assertThat(directory.err())
        .contains(dir + " (-c): EISDIR (Is a directory)")
        .doesNotContain("java.");
    Path notText = Files.write(dir.resolve("latin1"), new byte[] {(byte) 0xff, 'x'});
    Cli.Result latin1 = cli.run("init", "-c", notText.toString());
    assertThat(latin1.code()).as(latin1.toString()).isEqualTo(3);
    assertThat(latin1.err()).contains("the spec file " + notText + " (-c) is not UTF-8 text");
    LmctfyException denied =
        Invocation.cannot("read the spec file /x (-c)", new AccessDeniedException("/x"));
    assertThat(denied.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
    assertThat(denied).hasMessage("cannot read the spec file /x (-c): EACCES (Permission denied)");
    assertThat(ok(cli.run("list", "containers", "-r", "/")).out()).isEmpty();
  }

  @Test
  void updateDiffKeepsOtherFieldsAndReplaceResetsThem() {
    ok(cli.run("create", "/a", "cpu { limit: 500 } memory { limit: 104857600 }"));
    ok(cli.run("update", "diff", "/a", "memory { limit: 209715200 }"));
    assertThat(ok(cli.run("spec", "/a")).out()).contains("limit: 500", "limit: 209715200");
    ok(cli.run("update", "replace", "/a", "memory { limit: 52428800 }"));
    String spec = ok(cli.run("spec", "--json", "/a")).out();
    assertThat(spec).contains("52428800").doesNotContain("500,");
  }

  @Test
  void aLimitBelowTheUsageIsRefusedNamingItWithOrWithoutForceOnV1() throws Exception {
    ok(cli.run("create", "/a", "memory { limit: 268435456 }"));
    Hierarchy memory = fs.hierarchy("memory").orElseThrow();
    fs.kernel().setValue(memory, CgroupPath.of("/a"), "memory.usage_in_bytes", "104857600\n");
    for (String[] line :
        new String[][] {
          {"update", "diff", "/a", "memory { limit: 64M }"},
          {"update", "diff", "--force-memory-limit", "/a", "memory { limit: 64M }"}
        }) {
      Cli.Result r = cli.run(line);
      assertThat(r.code()).as(r.toString()).isEqualTo(9);
      assertThat(r.err()).contains("memory.usage_in_bytes", "104857600", "EBUSY");
    }
    ok(cli.run("update", "diff", "--force-memory-limit", "/a", "memory { limit: 128M }"));
    assertThat(ok(cli.run("spec", "/a")).out()).contains("limit: 134217728");
  }

  @Test
  void specAndStatsPrintJsonWithLmctfysFieldNames() throws Exception {
    ok(cli.run("create", "/a", "memory { limit: 104857600 swap_limit: 209715200 }"));
    JsonNode spec = new ObjectMapper().readTree(ok(cli.run("--json", "spec", "/a")).out());
    assertThat(spec.at("/memory/swap_limit").asLong()).isEqualTo(209715200);
    JsonNode stats =
        new ObjectMapper().readTree(ok(cli.run("stats", "full", "--json", "/a")).out());
    assertThat(stats.at("/memory/limit").asLong()).isEqualTo(104857600);
  }

  @Test
  void destroyWithoutForceRefusesAContainerWithSubcontainersOrProcesses() {
    ok(cli.run("create", "/a", ""));
    ok(cli.run("create", "/a/b", ""));
    Cli.Result r = cli.run("destroy", "/a");
    assertThat(r.code()).isEqualTo(9);
    assertThat(r.err()).contains("/a/b", "destroy -f");
    ok(cli.run("destroy", "/a/b"));
    long pid = Long.parseLong(ok(cli.run("-v", "run", "-n", "/a", "sleep", "100")).out().strip());
    assertThat(cli.run("destroy", "/a").code()).isEqualTo(9);
    ok(cli.run("destroy", "-f", "/a"));
    assertThat(fs.processes().living()).doesNotContain(pid);
    CgroupAssertions.assertThat(fs).hasNoCgroupsButTheRoots();
  }

  @Test
  void runKeepsTheProgramsOwnOptionsAndRunsOneArgumentWithASpaceThroughTheShell() {
    ok(cli.run("create", "/c", ""));
    long ls = Long.parseLong(ok(cli.run("run", "-v", "-n", "/c", "ls", "-l", "-n")).out().strip());
    assertThat(fs.processes().commandOf(ls).orElseThrow()).endsWith("ls", "-l", "-n");
    long shell =
        Long.parseLong(ok(cli.run("run", "-n", "-v", "/c", "ls -l | wc -l")).out().strip());
    assertThat(fs.processes().commandOf(shell).orElseThrow())
        .endsWith("/bin/sh", "-c", "ls -l | wc -l");
    assertThat(ok(cli.run("list", "pids", "/c", "-v")).out())
        .isEqualTo(Math.min(ls, shell) + "\n" + Math.max(ls, shell) + "\n");
  }

  @Test
  void aDoubleDashAfterRunsContainerMarksWhereTheProgramStartsAndIsNotPassedOn() {
    ok(cli.run("create", "/c", ""));
    long ls = Long.parseLong(ok(cli.run("-v", "run", "-n", "/c", "--", "ls", "-l")).out().strip());
    assertThat(detachedProgram(ls)).containsExactly("ls", "-l");
    long before =
        Long.parseLong(ok(cli.run("-v", "run", "-n", "--", "/c", "--", "ls")).out().strip());
    assertThat(detachedProgram(before)).containsExactly("ls");
    long dashes =
        Long.parseLong(ok(cli.run("-v", "run", "-n", "/c", "--", "--", "x")).out().strip());
    assertThat(detachedProgram(dashes)).containsExactly("--", "x");
    Cli.Result nothing = cli.run("run", "-n", "/c", "--");
    assertThat(nothing.code()).isEqualTo(3);
    assertThat(nothing.err()).contains("Missing required parameter: '<command>'");
  }

  /** The program a detached run started: its command after {@code setsid --}. */
  private List<String> detachedProgram(long pid) {
    List<String> command = fs.processes().commandOf(pid).orElseThrow();
    assertThat(command.get(0)).endsWith("setsid");
    assertThat(command.get(1)).isEqualTo("--");
    return command.subList(2, command.size());
  }

  @Test
  void runWithoutNoWaitWaitsAndExitsWithTheProgramsCode() throws Exception {
    ok(cli.run("create", "/c", ""));
    Set<Long> before = fs.processes().living();
    List<Long> started = new ArrayList<>();
    Thread program =
        new Thread(
            () -> {
              try {
                long pid = newFakeProcess(before);
                started.add(pid);
                fs.processes().exit(pid, 7); // the program ends with 7
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    program.start();
    Cli.Result r = cli.run("run", "/c", "true");
    program.join();
    assertThat(r.code()).as(r.toString()).isEqualTo(7);
    assertThat(fs.processes().commandOf(started.get(0)).orElseThrow()).endsWith("true");
  }

  @Test
  void runsExitCodeIsTheProgramsAndOnlyLmctfysOwnFailuresPrintTheirLine() throws Exception {
    ok(cli.run("create", "/c", ""));
    Set<Long> before = fs.processes().living();
    Thread program =
        new Thread(
            () -> {
              try {
                fs.processes()
                    .exit(
                        newFakeProcess(before), 5); // the program's 5, lmctfy's NOT_FOUND by number
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    program.start();
    Cli.Result programs = cli.run("run", "/c", "true");
    program.join();
    assertThat(programs.code()).as(programs.toString()).isEqualTo(5);
    assertThat(programs.err()).isEmpty();
    Cli.Result lmctfys = cli.run("run", "/nope", "true");
    assertThat(lmctfys.code()).isEqualTo(5);
    assertThat(lmctfys.err())
        .isEqualTo("Command exited with error message: 5: container /nope does not exist\n");
    assertThat(fs.processes().living()).isEqualTo(before);
    assertThat(ok(cli.run("run", "--help")).out().replaceAll("\\s+", " "))
        .contains(
            "lmctfy's own failures come "
                + "before the command starts and print \"Command exited with error message: <code>: ...\" on stderr");
  }

  @Test
  void aRootThatIsNotThereIsNotFoundAndOneThatIsThereInSomeHierarchiesOnlyAFailedPrecondition()
      throws Exception {
    Backend backend = new Backend(fs, null, true);
    Cli.Result absent = Cli.on(backend, "--root", "/nope").run("list", "containers", "/");
    assertThat(absent.code()).as(absent.toString()).isEqualTo(5);
    assertThat(absent.out()).isEmpty();
    assertThat(absent.err())
        .startsWith(
            "Command exited with error message: 5: --root /nope: there is no cgroup /nope "
                + "(in none of the ");
    Hierarchy first =
        fs.hierarchies().stream().filter(h -> !h.controllers().isEmpty()).findFirst().orElseThrow();
    fs.makeCgroup(first, CgroupPath.of("/half"));
    Cli.Result half = Cli.on(backend, "--root", "/half").run("create", "/a", "");
    assertThat(half.code()).as(half.toString()).isEqualTo(9);
    assertThat(half.err()).contains("--root /half: the cgroup /half is missing in ");
    List<String> missing =
        List.of(half.err().strip().substring(half.err().indexOf("hierarchies: ") + 13).split(", "));
    assertThat(missing)
        .isNotEmpty()
        .doesNotContain(first.display(CgroupPath.of("/half"), null))
        .allSatisfy(m -> assertThat(m).endsWith("/half"));
    assertThat(Cli.on(backend, "--root", "half").run("list", "containers", "/").err())
        .startsWith(
            "Command exited with error message: 3: --root half: not an absolute clean cgroup path");
    ok(cli.run("create", "/there", ""));
    ok(Cli.on(backend, "--root", "/there").run("create", "/a", ""));
    assertThat(ok(cli.run("list", "containers", "-r", "/")).out())
        .isEqualTo("name=\"/there\"\nname=\"/there/a\"\n");
  }

  @Test
  void theTerminalsForegroundIsReadFromProcStat() {
    assertThat(
            ProgramSignals.inTerminalForeground(
                "4242 (java (lmctfy) x) S 1 4242 4242 34816 4242 4194560 0"))
        .isTrue();
    assertThat(
            ProgramSignals.inTerminalForeground("4242 (java) S 1 4242 4242 34816 4100 4194560 0"))
        .isFalse();
    assertThat(ProgramSignals.inTerminalForeground("4242 (java) S 1 4242 4242 0 -1 4194560 0"))
        .isFalse();
  }

  @Test
  void theFakeBackendOfTheCommandLineSaysSoAndRefusesToWaitForAProgramItCannotRun() {
    Cli.Result r = Cli.real("--backend", "fake").run("run", "/", "true");
    assertThat(r.err()).contains("backend: in-memory fake", "starts empty");
    assertThat(r.code()).isEqualTo(9);
    assertThat(r.err()).contains("run -n");
    Cli.Result each = Cli.real("--backend", "fake").run("list", "containers", "/");
    assertThat(each.code()).isZero();
    assertThat(each.out()).isEmpty();
    assertThat(Cli.real("--backend", "cloud").run("list", "containers", "/").code()).isEqualTo(3);
  }

  @Test
  void pauseAndResumeFreezeAndThawTheContainer() throws Exception {
    ok(cli.run("create", "/a", ""));
    ok(cli.run("pause", "/a"));
    Hierarchy freezer =
        fs.hierarchies().stream().filter(h -> h.has("freezer")).findFirst().orElseThrow();
    assertThat(fs.read(freezer, CgroupPath.of("/a"), "freezer.state").strip()).isEqualTo("FROZEN");
    ok(cli.run("resume", "/a"));
    assertThat(fs.read(freezer, CgroupPath.of("/a"), "freezer.state").strip()).isEqualTo("THAWED");
  }

  @Test
  void enterKillallDetectAndListTidsWorkOnAProcess() {
    ok(cli.run("create", "/a", ""));
    long pid = fs.processes().spawn();
    long tid = fs.processes().spawnThread(pid);
    ok(cli.run("enter", "/a", Long.toString(pid), Long.toString(tid)));
    assertThat(ok(cli.run("detect", Long.toString(pid))).out()).isEqualTo("name=\"/a\"\n");
    assertThat(ok(cli.run("list", "tids", "/a")).out())
        .isEqualTo("tid=\"" + pid + "\"\ntid=\"" + tid + "\"\n");
    ok(cli.run("killall", "/a"));
    assertThat(fs.processes().living()).doesNotContain(pid);
    assertThat(ok(cli.run("list", "pids", "/a")).out()).isEmpty();
  }

  @Test
  void initWithAnEmptySpecOnlyChecksTheCgroups() {
    var before = fs.snapshot();
    ok(cli.run("init", ""));
    ok(cli.run("init"));
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void notifyBlocksUntilOneEventAndPrintsItsStatus() throws Exception {
    ok(cli.run("create", "/a", "memory { limit: 104857600 }"));
    java.util.concurrent.CompletableFuture<Cli.Result> oom =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> cli.run("notify", "memory", "oom", "/a"));
    var memory = fs.hierarchy("memory").orElseThrow();
    var path = org.lmctfy.cgroupfs.CgroupPath.of("/a");
    while (!oom.isDone()) {
      fs.kernel()
          .raiseOom(
              memory, path); // again until the registration, made on the other thread, sees one
      Thread.sleep(10);
    }
    Cli.Result result = oom.get();
    assertThat(result.code()).isZero();
    assertThat(result.out()).isEqualTo("notification_status=\"0\"\n");
    assertThat(cli.run("notify", "memory", "threshold", "/a", "-1").code()).isEqualTo(3);
  }

  @Test
  void cleanupFinishesWhatACrashedCreateLeftAndLeavesCompleteContainers() {
    ok(cli.run("create", "/keep", ""));
    fs.faults().crashAt(3);
    try {
      cli.run("create", "/x", "cpu { limit: 500 } memory { limit: 104857600 }");
    } catch (FakeCrash expected) {
      // the process "died" half-way through the create
    }
    fs.faults().recover();
    assertThat(fs.record().count()).isPositive();
    assertThat(ok(cli.run("cleanup", "/x")).out()).isEqualTo("removed=\"/x\"\n");
    assertThat(ok(cli.run("cleanup", "/x")).out()).isEmpty();
    assertThat(ok(cli.run("cleanup", "/keep")).out()).isEmpty();
    assertThat(ok(cli.run("cleanup")).out()).isEmpty();
    try (ContainerApi api = ContainerApi.open(fs)) {
      assertThat(api.get("/").listSubcontainers(org.lmctfy.ListPolicy.RECURSIVE))
          .containsExactly("/keep");
    }
  }

  @Test
  void everyCommandHasHelp() {
    List<String> paths = new ArrayList<>();
    collect(Lmctfy.tree(), new ArrayList<>(), paths);
    assertThat(paths)
        .contains(
            "create", "list containers", "notify memory threshold", "update replace", "cleanup");
    for (String path : paths) {
      List<String> args = new ArrayList<>(List.of(path.split(" ")));
      args.add("--help");
      Cli.Result r = ok(cli.run(args.toArray(String[]::new)));
      assertThat(r.out()).as(path).startsWith("Usage: lmctfy " + path);
      assertThat(ok(cli.run(("help " + path).split(" "))).out())
          .as("help " + path)
          .isEqualTo(r.out());
    }
    assertThat(ok(cli.run("help")).out()).startsWith("Usage: lmctfy [<options>] <command>");
    assertThat(cli.run("help", "frobnicate").code()).isEqualTo(5);
  }

  private static void collect(Command cmd, List<String> prefix, List<String> out) {
    for (Command sub : cmd.subcommands()) {
      List<String> path = new ArrayList<>(prefix);
      path.add(sub.name());
      out.add(String.join(" ", path));
      collect(sub, path, out);
    }
  }

  @Test
  void completionPrintsABashScriptForEveryCommand() throws Exception {
    String script = ok(cli.run("completion")).out();
    assertThat(script).contains("complete -F", "_lmctfy", "containers", "threshold", "--backend");
    assertThat(complete(script, "lmctfy", "list", ""))
        .containsExactlyInAnyOrder("containers", "pids", "tids");
    assertThat(complete(script, "lmctfy", "-v", "list", "containers", "-"))
        .contains("-r", "--recursive", "--json")
        .doesNotContain("-f");
    assertThat(complete(script, "lmctfy", "--backend", "")).containsExactly("host", "fake");
    assertThat(complete(script, "lmctfy", "--verb")).containsExactly("--verbose");
    assertThat(complete(script, "lmctfy", "--root", "/x", "cr")).containsExactly("create");
    assertThat(complete(script, "lmctfy", "notify", "memory", "t")).containsExactly("threshold");
    assertThat(complete(script, "lmctfy", "--fake-layout", "V"))
        .containsExactly("V2", "V2_BARE", "V1");
  }

  /**
   * What bash offers, with {@code script} loaded, for the command line {@code words} (the last one
   * being typed).
   */
  private static List<String> complete(String script, String... words) throws Exception {
    StringBuilder line = new StringBuilder("COMP_WORDS=(");
    for (String w : words) {
      line.append(" '").append(w).append('\'');
    }
    line.append(" ); COMP_CWORD=")
        .append(words.length - 1)
        .append("; _lmctfy; printf '%s\\n' \"${COMPREPLY[@]}\"");
    Process bash =
        new ProcessBuilder("bash", "-c", script + "\n" + line).redirectErrorStream(true).start();
    String out =
        new String(bash.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(bash.waitFor()).as(out).isZero();
    return out.lines().filter(l -> !l.isEmpty()).toList();
  }

  @Test
  void versionNamesTheProject() {
    assertThat(ok(cli.run("--version")).out()).startsWith("lmctfy for Java ");
  }
}
