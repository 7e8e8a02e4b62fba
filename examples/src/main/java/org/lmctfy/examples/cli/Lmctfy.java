package org.lmctfy.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.testing.FakeLayout;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code lmctfy} command-line tool: lmctfy's commands and arguments over {@link ContainerApi}.
 *
 * <pre>{@code
 * java -jar examples/target/lmctfy.jar create /test 'cpu { limit: 1000 } memory { limit: 1000000000 }'
 * java -jar examples/target/lmctfy.jar --backend fake list containers -r /
 * }</pre>
 *
 * <p>The exit code is the {@link ErrorCode} number (0 on success; {@code run} without {@code -n}
 * exits with its program's code); a failure prints {@code Command exited with error message:
 * <code>: <message>} on stderr. Usage errors are INVALID_ARGUMENT (3), an unknown command
 * NOT_FOUND (5), as in lmctfy, with the commands it may have meant. No failure prints a stack
 * trace unless {@code --debug} is given. The global options ({@code -p -v -l --json --backend
 * --root --fake-layout --debug -h -V}) may come before or after the command; after {@code run}'s
 * container name everything belongs to the program.
 *
 * <p>One instance per invocation; not thread-safe.
 */
@Command(name = "lmctfy", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
    versionProvider = Lmctfy.Version.class, sortOptions = false,
    description = "Let Me Contain That For You: Linux containers (cgroups) from the command line.%n"
        + "Exit code: 0, or the status number of the failure (3 INVALID_ARGUMENT, 5 NOT_FOUND, "
        + "6 ALREADY_EXISTS, 9 FAILED_PRECONDITION, 12 UNIMPLEMENTED, 14 UNAVAILABLE, ...).",
    subcommands = {
        ContainerCommands.Create.class, ContainerCommands.Destroy.class, ContainerCommands.Detect.class,
        ProcessCommands.Enter.class, ContainerCommands.Init.class, ProcessCommands.KillAll.class,
        ContainerCommands.ListMenu.class, ProcessCommands.Notify.class, ProcessCommands.Pause.class,
        ProcessCommands.Resume.class, ProcessCommands.Run.class, ContainerCommands.SpecCommand.class,
        ContainerCommands.Stats.class, ContainerCommands.Update.class, ContainerCommands.Cleanup.class,
        Demo.class, Completion.class, CommandLine.HelpCommand.class})
public final class Lmctfy {
  /** What the process prints before a failure's code and message, as lmctfy did. */
  static final String ERROR_PREFIX = "Command exited with error message: ";

  @Option(scope = ScopeType.INHERIT, names = {"-p", "--pairs"}, description = "Print key=\"value\" pairs (the default).")
  boolean pairs;

  @Option(scope = ScopeType.INHERIT, names = {"-v", "--values"}, description = "Print values only, one per line.")
  boolean values;

  @Option(scope = ScopeType.INHERIT, names = {"-l", "--long"}, description = "Print keys and values in long form.")
  boolean longStyle;

  @Option(scope = ScopeType.INHERIT, names = "--json", description = "Print one JSON object (a spec or stats as their JSON).")
  boolean json;

  @Option(scope = ScopeType.INHERIT, names = "--backend", paramLabel = "host|fake", defaultValue = "host",
      description = "host: this machine's cgroups (needs root); fake: an in-memory cgroupfs that starts "
          + "empty at every invocation. Default: ${DEFAULT-VALUE}.")
  String backend;

  @Option(scope = ScopeType.INHERIT, names = "--root", paramLabel = "<cgroup>",
      description = "The cgroup (the same path in every hierarchy) that is the container /. Default: the library's:"
          + " where v2 carries the controllers, the cgroup lmctfy runs in (a systemd unit's); else /.")
  String root;

  @Option(scope = ScopeType.INHERIT, names = "--fake-layout", paramLabel = "<layout>", defaultValue = "SYSTEMD_V2",
      description = "The fake's host layout: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}.")
  FakeLayout fakeLayout;

  @Option(scope = ScopeType.INHERIT, names = "--debug", description = "Print the stack trace of a failure.")
  boolean debug;

  final InputStream in;
  final PrintStream out;
  final PrintStream err;
  private final Backend.Factory backends;
  private Backend openedBackend;
  private ContainerApi api;

  Lmctfy(InputStream in, PrintStream out, PrintStream err, Backend.Factory backends) {
    this.in = in;
    this.out = out;
    this.err = err;
    this.backends = backends;
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err, Backend::open));
  }

  /** Runs one command line with these streams and backends; returns the exit code. */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err, Backend.Factory backends) {
    Lmctfy top = new Lmctfy(in, out, err, backends);
    CommandLine cl = commandLine(top);
    try {
      return cl.execute(args);
    } finally {
      top.close();
    }
  }

  /** The command tree over {@code top}, with lmctfy's error handling and exit codes. */
  static CommandLine commandLine(Lmctfy top) {
    CommandLine cl = new CommandLine(top);
    cl.setOut(new PrintWriter(top.out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(top.err, true, StandardCharsets.UTF_8));
    // run's program keeps its own options: after the container name everything is the command.
    cl.getSubcommands().get("run").setStopAtPositional(true);
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> top.fail(e));
    cl.setParameterExceptionHandler((e, args) -> {
      CommandLine where = e.getCommandLine();
      if (e instanceof CommandLine.UnmatchedArgumentException u && !where.getSubcommands().isEmpty()
          && !u.getUnmatched().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
        // an unknown command: what it may have meant, not the whole usage
        List<String> near = nearest(u.getUnmatched().get(0), where.getSubcommands().keySet());
        top.err.println(ERROR_PREFIX + ErrorCode.NOT_FOUND.number() + ": unknown command '" + u.getUnmatched().get(0)
            + "' for " + where.getCommandName() + (near.isEmpty() ? "" : "; did you mean " + String.join(" or ", near) + "?"));
        top.err.println("The commands: " + String.join(", ", where.getSubcommands().keySet()) + ". See '"
            + where.getCommandSpec().qualifiedName() + " help'.");
        return ErrorCode.NOT_FOUND.number();
      }
      top.err.println(ERROR_PREFIX + ErrorCode.INVALID_ARGUMENT.number() + ": " + e.getMessage());
      where.usage(top.err);
      return ErrorCode.INVALID_ARGUMENT.number();
    });
    return cl;
  }

  /** The commands within two edits (a swap of neighbours is one) of a mistyped {@code word}, nearest first. */
  static List<String> nearest(String word, java.util.Collection<String> commands) {
    java.util.Map<String, Integer> near = new java.util.TreeMap<>();
    for (String c : commands) {
      int d = distance(word, c);
      if (d <= 2 && d < c.length()) {
        near.put(c, d);
      }
    }
    return near.keySet().stream().sorted(java.util.Comparator.comparing(near::get)).toList();
  }

  /** Edit distance with transpositions (optimal string alignment). */
  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      for (int j = 0; j <= b.length(); j++) {
        if (i == 0 || j == 0) {
          d[i][j] = i + j;
          continue;
        }
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  /** Prints a failure as lmctfy did (its stack trace only with {@code --debug}) and returns its exit code. */
  int fail(Exception e) {
    int code;
    if (e instanceof LmctfyException lmctfy) {
      err.println(ERROR_PREFIX + lmctfy.code().number() + ": " + describe(lmctfy));
      code = lmctfy.code().number();
    } else {
      err.println(ERROR_PREFIX + ErrorCode.INTERNAL.number() + ": " + e + (debug ? "" : " (--debug prints the stack trace)"));
      code = ErrorCode.INTERNAL.number();
    }
    if (debug) {
      e.printStackTrace(err);
    }
    return code;
  }

  /**
   * The message, with the cgroup filesystem failure behind it (file, value, errno) when the
   * message does not already say it, and every suppressed failure (a rollback that also failed).
   */
  static String describe(LmctfyException e) {
    StringBuilder b = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof CgroupFsException fs && !b.toString().contains(fs.getMessage())) {
        b.append(" (").append(fs.getMessage()).append(')');
      }
    }
    for (Throwable s : e.getSuppressed()) {
      b.append("; then also: ").append(s.getMessage());
    }
    return b.toString();
  }

  /** The style the options chose; INVALID_ARGUMENT if more than one. */
  Output.Style style() {
    int chosen = (pairs ? 1 : 0) + (values ? 1 : 0) + (longStyle ? 1 : 0) + (json ? 1 : 0);
    if (chosen > 1) {
      throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, "choose one output style of -p, -v, -l, --json");
    }
    return values ? Output.Style.VALUES : longStyle ? Output.Style.LONG : json ? Output.Style.JSON : Output.Style.PAIRS;
  }

  /** The backend, opened at the first call; says on stderr when it is not the host. */
  Backend backend() {
    if (openedBackend == null) {
      Backend.Kind kind;
      try {
        kind = Backend.Kind.valueOf(backend.toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, "--backend must be host or fake, got \"" + backend + "\"");
      }
      try {
        openedBackend = backends.open(kind, fakeLayout);
      } catch (IOException e) {
        throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, "cannot open the " + backend + " cgroups: " + e.getMessage(), e);
      }
      if (openedBackend.notice() != null) {
        err.println(openedBackend.notice());
      }
    }
    return openedBackend;
  }

  /** The API over the backend and {@code --root}, opened at the first call, closed by {@link #run}. */
  ContainerApi api() {
    if (api == null) {
      api = root == null ? ContainerApi.open(backend().fs()) : ContainerApi.open(backend().fs(), CgroupPath.of(root));
    }
    return api;
  }

  private void close() {
    if (api != null) {
      api.close();
    }
  }

  /** {@code --version}: the project version, from the build. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties p = new Properties();
      try (InputStream s = Lmctfy.class.getResourceAsStream("version.properties")) {
        if (s == null) {
          throw new IOException("version.properties is missing from the class path");
        }
        p.load(s);
      }
      return new String[] {"lmctfy for Java " + p.getProperty("version")};
    }
  }
}
