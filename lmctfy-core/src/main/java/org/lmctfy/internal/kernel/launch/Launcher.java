package org.lmctfy.internal.kernel.launch;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.PlacementException;

/**
 * The host's way to start a process inside cgroups, without trusting the caller's environment
 * before the process is inside.
 *
 * <ol>
 *   <li>The JVM spawns a launcher, {@code /bin/sh -c SCRIPT} ({@link Spawner#start}: {@code
 *       posix_spawn}, so no {@code jspawnhelper} runs first), whose environment holds nothing of
 *       the caller's under a name anything interprets: each entry of the program's environment
 *       travels as the value of {@code LMCTFY_X<i>} or {@code LMCTFY_A<i>}. No shell hook ({@code
 *       BASH_ENV}, {@code ENV}, {@code BASH_FUNC_*%%}, {@code SHELLOPTS}, {@code PS4}), no loader
 *       hook ({@code LD_PRELOAD}, {@code LD_AUDIT}, {@code GLIBC_TUNABLES}...) and no locale is
 *       seen by the launcher. Its standard input is a pipe from the JVM: the gate. A detached run's
 *       {@code setsid --} is left out: the spawn makes the launcher a session leader.
 *   <li>The launcher blocks reading one line from the gate. The JVM writes the launcher's pid into
 *       every cgroup's {@code cgroup.procs} itself, so a refusal is the kernel's errno on the file
 *       that refused. If one fails, the JVM kills the launcher (it has run nothing but that read)
 *       and reports the write.
 *   <li>Placed, the JVM writes {@code go} to the gate. The launcher (inside now) opens the
 *       program's standard input file if it has one, exports the entries that a shell passes on as
 *       they are ({@code X}), and execs the program, through {@code env -u PWD -u OLDPWD -u SHLVL
 *       -u _ -u PATH -- <the A entries> argv} where the shell would add or change a variable or an
 *       entry cannot be a shell variable ({@code A}): the program gets exactly the environment it
 *       was given, nothing added. Where {@code /bin/sh} is dash, which adds only {@code PWD}, and
 *       no entry needs {@code env}, the launcher execs the program directly.
 * </ol>
 *
 * <p>Where the C library can spawn into a cgroup and the container is one v2 cgroup, {@link
 * Spawner} starts the program there directly instead, and none of the above happens.
 *
 * <p>If the JVM dies before the gate opens, the launcher reads end-of-file and exits 125 without
 * running anything. No pid is looked up after the launcher could have ended, so a program that
 * exits at once is an ordinary start.
 */
public final class Launcher {
  /** The launcher's exit status when it ends without running the program. */
  public static final int PLACEMENT_FAILED = 125;

  /** The gate's one line. */
  private static final byte[] GO = "go\n".getBytes(StandardCharsets.US_ASCII);

  /**
   * Positional parameters: the count of X entries, of A entries, the stdin file ("" = keep the gate
   * pipe), the env program ("" = exec directly, unsetting the PWD dash adds), then argv. Every
   * variable of the script is LMCTFY_-prefixed, and a caller's LMCTFY_ entry is an A entry, so no
   * exported entry can be overwritten by the script.
   */
  static final String SCRIPT =
      String.join(
          "\n",
          "LMCTFY_nx=$1 LMCTFY_na=$2 LMCTFY_in=$3 LMCTFY_env=$4",
          "shift 4",
          "IFS= read -r LMCTFY_go || exit 125",
          "[ \"$LMCTFY_go\" = go ] || exit 125",
          "if [ -n \"$LMCTFY_in\" ]; then",
          "  { true <\"$LMCTFY_in\"; } || exit 125",
          "  exec <\"$LMCTFY_in\"",
          "fi",
          "LMCTFY_i=$LMCTFY_na",
          "while [ \"$LMCTFY_i\" -gt 0 ]; do",
          "  LMCTFY_i=$((LMCTFY_i - 1))",
          "  eval \"LMCTFY_e=\\$LMCTFY_A$LMCTFY_i\"",
          "  unset \"LMCTFY_A$LMCTFY_i\"",
          "  set -- \"$LMCTFY_e\" \"$@\"",
          "done",
          "[ -n \"$LMCTFY_env\" ] || unset PWD",
          "LMCTFY_i=0",
          "while [ \"$LMCTFY_i\" -lt \"$LMCTFY_nx\" ]; do",
          "  eval \"LMCTFY_e=\\$LMCTFY_X$LMCTFY_i\"",
          "  unset \"LMCTFY_X$LMCTFY_i\"",
          "  export \"$LMCTFY_e\"",
          "  LMCTFY_i=$((LMCTFY_i + 1))",
          "done",
          "if [ -n \"$LMCTFY_env\" ]; then",
          "  exec \"$LMCTFY_env\" -u PWD -u OLDPWD -u SHLVL -u _ -u PATH -- \"$@\"",
          "fi",
          "exec \"$@\"",
          "");

  /**
   * Names a shell sets, changes, refuses or computes (bash's readonly and dynamic variables, dash's
   * and bash's own): such an entry goes to the program through {@code env}'s arguments, never
   * through the shell.
   */
  private static final Set<String> SHELL_OWNED =
      Set.of(
          "PWD",
          "OLDPWD",
          "SHLVL",
          "_",
          "IFS",
          "PPID",
          "UID",
          "EUID",
          "LINENO",
          "OPTIND",
          "OPTARG",
          "RANDOM",
          "SRANDOM",
          "SECONDS",
          "HISTCMD",
          "FUNCNAME",
          "GROUPS",
          "DIRSTACK",
          "EPOCHSECONDS",
          "EPOCHREALTIME",
          "SHELLOPTS",
          "BASHOPTS",
          "BASHPID",
          "ENV",
          "PS1",
          "PS2",
          "PS3",
          "PS4",
          "HOSTNAME",
          "HOSTTYPE",
          "MACHTYPE",
          "OSTYPE",
          "POSIXLY_CORRECT",
          "TMOUT",
          "HISTFILE",
          "HISTSIZE",
          "HISTFILESIZE",
          "HISTCONTROL",
          "MAILCHECK",
          "OPTERR",
          "COLUMNS",
          "LINES",
          "CDPATH",
          "GLOBIGNORE",
          "FIGNORE",
          "TIMEFORMAT",
          "INPUTRC",
          "READLINE_LINE",
          "READLINE_POINT",
          "REPLY",
          "KSH_VERSION",
          "ZSH_VERSION",
          "FCEDIT",
          "HISTCHARS",
          "ZDOTDIR");

  /**
   * The shell that runs the launcher script: its binary, the arguments before {@code -c} (a
   * multi-call binary's applet), and whether it may exec the program directly.
   */
  public record Shell(String path, boolean direct, List<String> args) {
    public Shell {
      args = List.copyOf(args);
    }

    /** The host's {@code /bin/sh}: direct where it is dash (which adds only PWD to an exec). */
    public static Shell host() {
      return HOST;
    }

    /** A given shell binary; direct only if it is dash. */
    public static Shell of(String path) {
      return new Shell(path, isDash(path), List.of());
    }

    private static boolean isDash(String path) {
      try {
        return Path.of(path).toRealPath().getFileName().toString().equals("dash");
      } catch (IOException e) {
        return false;
      }
    }
  }

  private static final Shell HOST = Shell.of("/bin/sh");
  private static final List<String> ENV = List.of("/usr/bin/env", "/bin/env");

  private Launcher() {}

  /** See {@link CgroupFs#start}: the host's {@code /bin/sh}. */
  public static Process start(
      CgroupFs fs, ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups) throws IOException {
    return start(fs, command, cgroups, Shell.host());
  }

  /**
   * {@link #start(CgroupFs, ProcessBuilder, Map)} with a given launcher shell (tests: bash,
   * busybox).
   */
  public static Process start(
      CgroupFs fs, ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups, Shell shell)
      throws IOException {
    List<String> argv = command.command();
    boolean detached = Spawner.isSetsid(argv);
    String program = argv.isEmpty() ? "" : argv.get(detached ? 2 : 0);
    if (program.indexOf('=') >= 0) { // refused whatever the environment, files and path
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "argv[0] "
              + program
              + " contains '=', which env(1), the launcher's last step, reads as a variable: name"
              + " the program by a path without '='");
    }
    LaunchChecks.check(command);
    ProcessBuilder.Redirect in = command.redirectInput();
    String stdinFile;
    if (in.type() == ProcessBuilder.Redirect.Type.PIPE) {
      stdinFile = "";
    } else if (in.type() == ProcessBuilder.Redirect.Type.READ) {
      stdinFile = in.file().getAbsolutePath();
    } else {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "the host launcher takes stdin from a pipe or a file, not "
              + in
              + " (it reads its start signal from a pipe first)");
    }
    Process spawned = Spawner.intoCgroup(command, cgroups);
    if (spawned != null) {
      return spawned;
    }
    boolean newSession = detached && Spawner.makesSessions();
    if (newSession) {
      argv = argv.subList(2, argv.size());
    }
    Map<String, String> given = command.environment();
    boolean direct = shell.direct() && given.keySet().stream().allMatch(n -> viaShell(n, true));
    List<String> exported = new ArrayList<>();
    List<String> passed = new ArrayList<>();
    for (Map.Entry<String, String> e : given.entrySet()) {
      (viaShell(e.getKey(), direct) ? exported : passed).add(e.getKey() + "=" + e.getValue());
    }
    String env = direct ? "" : env();
    if (!direct && !given.containsKey("PATH") && argv.get(0).indexOf('/') < 0) {
      // env(1) would search its own default PATH; sh, and LaunchChecks.check, search this one
      argv = new ArrayList<>(argv);
      argv.set(
          0, LaunchChecks.resolve(argv.get(0), LaunchChecks.DEFAULT_PATH, command.directory()));
    }
    List<String> launch = new ArrayList<>();
    launch.add(shell.path());
    launch.addAll(shell.args());
    launch.addAll(
        List.of(
            "-c",
            SCRIPT,
            "lmctfy-launch",
            Integer.toString(exported.size()),
            Integer.toString(passed.size()),
            stdinFile,
            env));
    launch.addAll(argv);
    ProcessBuilder launcher =
        new ProcessBuilder(launch)
            .directory(command.directory())
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .redirectOutput(command.redirectOutput())
            .redirectError(command.redirectError())
            .redirectErrorStream(command.redirectErrorStream());
    Map<String, String> environment = launcher.environment();
    environment.clear();
    for (int i = 0; i < exported.size(); i++) {
      environment.put("LMCTFY_X" + i, exported.get(i));
    }
    for (int i = 0; i < passed.size(); i++) {
      environment.put("LMCTFY_A" + i, passed.get(i));
    }
    Process p = Spawner.start(launcher, newSession); // at the gate: its pid is its own
    try {
      place(fs, p, cgroups);
      open(p, stdinFile.isEmpty());
      return p;
    } catch (IOException | RuntimeException | Error e) {
      p.destroyForcibly();
      waitQuietly(p);
      throw e;
    }
  }

  /**
   * Whether the entry {@code name} reaches the program as an export of the shell (else as an
   * argument of env). {@code direct}: the shell execs the program itself (dash, which exports a PWD
   * and PATH it is given as they are and adds only PWD, which the script unsets).
   */
  static boolean viaShell(String name, boolean direct) {
    if (name.isEmpty()
        || !(Character.isLetter(name.charAt(0)) && name.charAt(0) < 128 || name.charAt(0) == '_')) {
      return false;
    }
    for (int i = 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c < 128 && (Character.isLetterOrDigit(c) || c == '_'))) {
        return false;
      }
    }
    if (name.startsWith("LMCTFY_") || name.startsWith("BASH") || name.startsWith("COMP_")) {
      return false;
    }
    if (name.equals("PWD") || name.equals("PATH")) {
      return direct; // via env, which unsets what a shell adds of these and sets the given ones
    }
    return !SHELL_OWNED.contains(name);
  }

  /**
   * Writes the launcher's pid into every cgroup. A refusal names the file and the errno; a launcher
   * that vanished (ESRCH) was killed by someone else before it was inside.
   */
  private static void place(CgroupFs fs, Process p, Map<Hierarchy, CgroupPath> cgroups)
      throws IOException {
    String pid = Long.toString(p.pid());
    int placed = 0;
    for (Map.Entry<Hierarchy, CgroupPath> e : cgroups.entrySet()) {
      try {
        fs.write(e.getKey(), e.getValue(), "cgroup.procs", pid);
      } catch (CgroupFsException refused) {
        throw new PlacementException(p.pid(), placed, cgroups.size(), refused);
      }
      placed++;
    }
  }

  /** Opens the gate; the JVM keeps the pipe only when it is the program's standard input. */
  private static void open(Process p, boolean stdinIsPipe) throws IOException {
    OutputStream gate = p.getOutputStream();
    try {
      gate.write(GO);
      gate.flush();
    } catch (IOException e) {
      throw new PlacementException(
          p.pid(),
          "its start signal could not be written ("
              + e.getMessage()
              + "): it ended before it was told to go");
    } finally {
      if (!stdinIsPipe) {
        gate.close();
      }
    }
  }

  private static String env() {
    for (String e : ENV) {
      File f = new File(e);
      if (f.isFile() && f.canExecute()) {
        return e;
      }
    }
    throw new LmctfyException(
        ErrorCode.FAILED_PRECONDITION,
        "no env(1) at "
            + ENV
            + ": the launcher needs it to give the program exactly its environment");
  }

  /** Reaps a killed launcher so that no process outlives a failed start. */
  private static void waitQuietly(Process p) {
    boolean interrupted = false;
    while (true) {
      try {
        p.waitFor();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // keep waiting: the kill is already sent, this ends at once
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
