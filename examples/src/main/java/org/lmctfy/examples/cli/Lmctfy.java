package org.lmctfy.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.lmctfy.ApiOptions;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.examples.ShowHierarchies;
import org.lmctfy.examples.cli.Command.Opt;
import org.lmctfy.examples.cli.Command.Param;
import org.lmctfy.testing.FakeLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code lmctfy} command-line tool: lmctfy's commands and arguments over {@link ContainerApi}.
 *
 * <pre>{@code
 * java -jar examples/target/lmctfy.jar create /test 'cpu { limit: 1000 } memory { limit: 1000000000 }'
 * java -jar examples/target/lmctfy.jar --backend fake list containers -r /
 * }</pre>
 *
 * <p>The exit code is the {@link ErrorCode} number (0 on success; {@code run} without {@code -n}
 * exits with its program's status, 128+n if signal n ended it, and passes INT, TERM and HUP on to
 * it: see {@link ProgramSignals}); a failure of lmctfy's own prints {@code Command exited with
 * error message: <code>: <message>} on stderr, which is how a program's status is told from
 * lmctfy's. Usage errors are INVALID_ARGUMENT (3), an unknown command NOT_FOUND (5), as in lmctfy,
 * with the commands it may have meant. No failure prints a stack trace unless {@code --debug} is
 * given. SLF4J logs go to stderr, WARN and above unless {@code --verbose} (INFO) or {@code --debug}
 * (DEBUG) asks for more. The global options ({@code -p -v -l --json --backend --root --driver
 * --fake-layout --verbose --debug -h -V}) may come before or after the command; after {@code run}'s
 * container name everything belongs to the program. The commands are a {@link Command} tree read
 * without reflection: a command costs its own classes and the library's, nothing more.
 *
 * <p>One instance per invocation; not thread-safe.
 */
public final class Lmctfy {
  /** What the process prints before a failure's code and message, as lmctfy did. */
  static final String ERROR_PREFIX = "Command exited with error message: ";

  /** The default of {@code --fake-layout}. */
  private static final String DEFAULT_LAYOUT = "SYSTEMD_V2";

  final InputStream in;
  final PrintStream out;
  final PrintStream err;
  private final Backend.Factory backends;
  private Invocation parsed;
  private Backend openedBackend;
  private ContainerApi api;

  Lmctfy(InputStream in, PrintStream out, PrintStream err, Backend.Factory backends) {
    this.in = in;
    this.out = out;
    this.err = err;
    this.backends = backends;
  }

  /** The whole command tree, the root's options being the global ones. */
  static Command tree() {
    return new Command(
        "lmctfy",
        List.of(
            "Let Me Contain That For You: Linux containers (cgroups) from the command line.",
            "Exit code: 0, or the status number of the failure (3 INVALID_ARGUMENT, 5 NOT_FOUND, "
                + "6 ALREADY_EXISTS, 9 FAILED_PRECONDITION, 12 UNIMPLEMENTED, 14 UNAVAILABLE, ...)."),
        List.of(
            Opt.flag("Print key=\"value\" pairs (the default).", "-p", "--pairs"),
            Opt.flag("Print values only, one per line.", "-v", "--values"),
            Opt.flag("Print keys and values in long form.", "-l", "--long"),
            Opt.flag("Print one JSON object (a spec or stats as their JSON).", "--json"),
            Opt.value(
                "host|fake",
                "host: this machine's cgroups (reads need no root; changes need root, "
                    + "a delegated subtree or systemd); fake: an in-memory cgroupfs that starts empty at every "
                    + "invocation. Default: host.",
                "--backend"),
            Opt.value(
                "<cgroup>",
                "The cgroup (the same path in every hierarchy) that is the container /, with "
                    + "the cgroupfs driver. Default: the driver's.",
                "--root"),
            Opt.value(
                "auto|systemd|cgroupfs",
                "Who gives lmctfy its container /: systemd, a unit it delegated "
                    + "(lmctfy.service of the system manager for root, of the user's own manager for anyone else); "
                    + "cgroupfs, the cgroups as they are (the cgroup lmctfy runs in on v2, else /). Default: auto, "
                    + "systemd where it runs the machine on cgroup v2.",
                "--driver"),
            Opt.value(
                "<layout>",
                "The fake's host layout: " + layouts() + ". Default: " + DEFAULT_LAYOUT + ".",
                "--fake-layout"),
            Opt.flag(
                "Log what lmctfy and the library do (INFO; the default is WARN and above).",
                "--verbose"),
            Opt.flag("Print the stack trace of a failure, and log at DEBUG.", "--debug"),
            Opt.flag("Show this help message and exit.", "-h", "--help"),
            Opt.flag("Print version information and exit.", "-V", "--version")),
        List.of(),
        null,
        List.of(
            ContainerCommands.create(),
            ContainerCommands.destroy(),
            ContainerCommands.detect(),
            ProcessCommands.enter(),
            ContainerCommands.init(),
            ProcessCommands.killAll(),
            ContainerCommands.list(),
            ProcessCommands.notifications(),
            ProcessCommands.pause(),
            ProcessCommands.resume(),
            ProcessCommands.run(),
            ContainerCommands.spec(),
            ContainerCommands.stats(),
            ContainerCommands.update(),
            ContainerCommands.cleanup(),
            Command.leaf(
                "demo",
                List.of(
                    "List the hierarchies, then create, show and destroy a demo container.",
                    "Uses the host as root; otherwise the fake (and says so), whatever --backend says."),
                in -> {
                  ShowHierarchies.run(in.top.out);
                  return 0;
                },
                List.of()),
            Command.leaf(
                "completion",
                List.of(
                    "Print a bash completion script for lmctfy.",
                    "Use: source <(lmctfy "
                        + "completion); the distribution has it in share/bash-completion/completions/lmctfy."),
                in -> {
                  in.top.out.print(Completion.script(in.path.get(0)));
                  in.top.out.flush();
                  return 0;
                },
                List.of()),
            Command.leaf(
                "help",
                List.of("Print the help of a command (of lmctfy without one)."),
                Lmctfy::help,
                List.of(),
                Param.repeated("<command>", 0, "The command, e.g. list containers."))),
        false);
  }

  /** The fake's layouts, as {@code --fake-layout} takes them. */
  static String layouts() {
    List<String> names = new ArrayList<>();
    for (FakeLayout l : FakeLayout.values()) {
      names.add(l.name());
    }
    return String.join(", ", names);
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err, Backend::open, true));
  }

  /**
   * Runs one command line with these streams and backends; returns the exit code. Leaves logging as
   * it is.
   */
  static int run(
      String[] args, InputStream in, PrintStream out, PrintStream err, Backend.Factory backends) {
    return run(args, in, out, err, backends, false);
  }

  private static int run(
      String[] args,
      InputStream in,
      PrintStream out,
      PrintStream err,
      Backend.Factory backends,
      boolean configureLogging) {
    Lmctfy top = new Lmctfy(in, out, err, backends);
    try {
      top.parsed = Invocation.parse(top, tree(), args);
      if (configureLogging) {
        configureLogging(top.parsed);
      }
      return switch (top.parsed.request) {
        case HELP -> top.printHelp(top.parsed.path);
        case VERSION -> top.printVersion();
        case RUN -> top.parsed.command().action().run(top.parsed);
      };
    } catch (Invocation.UsageError e) {
      return top.usageError(e);
    } catch (Exception e) {
      return top.fail(e);
    } finally {
      top.close();
    }
  }

  /**
   * The level of SLF4J's simple binding, which the tool carries (a library leaves the binding to
   * its application): WARN and above by default, INFO with {@code --verbose}, DEBUG with {@code
   * --debug}; a level given with {@code -D} (in {@code LMCTFY_JAVA_OPTS}) wins. The binding reads
   * its configuration once, when the first logger is made, so this runs before any: nothing before
   * it logs, and the tool makes its own loggers only where it logs.
   */
  private static void configureLogging(Invocation parsed) {
    if (System.getProperty(LOG_LEVEL) == null) {
      System.setProperty(
          LOG_LEVEL, parsed.flag("--debug") ? "debug" : parsed.flag("--verbose") ? "info" : "warn");
    }
  }

  /** slf4j-simple's property for the level of every logger without one of its own. */
  static final String LOG_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";

  /** {@code help [<command>...]}: the help of the command those words name. */
  private static int help(Invocation in) {
    List<Command> path = new ArrayList<>(List.of(in.path.get(0)));
    for (String word : in.paramsFrom(0)) {
      Command sub = path.get(path.size() - 1).subcommand(word);
      if (sub == null) {
        throw new Invocation.UsageError(path, "unknown command '" + word + "'", word);
      }
      path.add(sub);
    }
    return in.top.printHelp(path);
  }

  private int printHelp(List<Command> path) {
    out.print(Usage.of(path));
    out.flush();
    return 0;
  }

  /** {@code --version}: the project version, from the build. */
  private int printVersion() throws IOException {
    Properties p = new Properties();
    try (InputStream s = Lmctfy.class.getResourceAsStream("version.properties")) {
      if (s == null) {
        throw new IOException("version.properties is missing from the class path");
      }
      p.load(s);
    }
    out.println("lmctfy for Java " + p.getProperty("version"));
    out.flush();
    return 0;
  }

  /**
   * A command line the tree cannot read: an unknown command gets what it may have meant and the
   * menu's commands (NOT_FOUND), anything else the message and the command's usage
   * (INVALID_ARGUMENT).
   */
  private int usageError(Invocation.UsageError e) {
    List<Command> where = e.where;
    if (e.unknownWord != null) {
      Command menu = where.get(where.size() - 1);
      List<String> names = new ArrayList<>();
      for (Command c : menu.subcommands()) {
        names.add(c.name());
      }
      List<String> near = nearest(e.unknownWord, names);
      List<String> qualified = new ArrayList<>();
      for (Command c : where) {
        qualified.add(c.name());
      }
      err.println(
          ERROR_PREFIX
              + ErrorCode.NOT_FOUND.number()
              + ": unknown command '"
              + e.unknownWord
              + "' for "
              + menu.name()
              + (near.isEmpty() ? "" : "; did you mean " + String.join(" or ", near) + "?"));
      err.println(
          "The commands: "
              + String.join(", ", names)
              + ". See '"
              + String.join(" ", qualified)
              + " help'.");
      err.flush();
      return ErrorCode.NOT_FOUND.number();
    }
    err.println(ERROR_PREFIX + ErrorCode.INVALID_ARGUMENT.number() + ": " + e.getMessage());
    err.print(Usage.of(where));
    err.flush();
    return ErrorCode.INVALID_ARGUMENT.number();
  }

  /**
   * The commands within two edits (a swap of neighbours is one) of a mistyped {@code word}, nearest
   * first.
   */
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
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  /**
   * Prints a failure as lmctfy did (its stack trace only with {@code --debug}) and returns its exit
   * code.
   */
  int fail(Exception e) {
    int code;
    if (e instanceof LmctfyException lmctfy) {
      err.println(ERROR_PREFIX + lmctfy.code().number() + ": " + describe(lmctfy));
      code = lmctfy.code().number();
    } else {
      err.println(
          ERROR_PREFIX
              + ErrorCode.INTERNAL.number()
              + ": "
              + e
              + (debug() ? "" : " (--debug prints the stack trace)"));
      code = ErrorCode.INTERNAL.number();
    }
    if (debug()) {
      e.printStackTrace(err);
    }
    return code;
  }

  /**
   * The message, with the cgroup filesystem failure behind it (file, value, errno) when the message
   * does not already say it, and every suppressed failure (a rollback that also failed).
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
    boolean pairs = parsed.flag("-p");
    boolean values = parsed.flag("-v");
    boolean longStyle = parsed.flag("-l");
    boolean json = parsed.flag("--json");
    int chosen = (pairs ? 1 : 0) + (values ? 1 : 0) + (longStyle ? 1 : 0) + (json ? 1 : 0);
    if (chosen > 1) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT, "choose one output style of -p, -v, -l, --json");
    }
    return values
        ? Output.Style.VALUES
        : longStyle ? Output.Style.LONG : json ? Output.Style.JSON : Output.Style.PAIRS;
  }

  private boolean debug() {
    return parsed != null && parsed.flag("--debug");
  }

  /** The backend, opened at the first call; says on stderr when it is not the host. */
  Backend backend() {
    if (openedBackend == null) {
      String backend = parsed.value("--backend", "host");
      Backend.Kind kind;
      try {
        kind = Backend.Kind.valueOf(backend.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new LmctfyException(
            ErrorCode.INVALID_ARGUMENT, "--backend must be host or fake, got \"" + backend + "\"");
      }
      String layout = parsed.value("--fake-layout", DEFAULT_LAYOUT);
      FakeLayout fakeLayout;
      try {
        fakeLayout = FakeLayout.valueOf(layout);
      } catch (IllegalArgumentException e) {
        throw new LmctfyException(
            ErrorCode.INVALID_ARGUMENT,
            "--fake-layout must be one of " + layouts() + ", got \"" + layout + "\"");
      }
      try {
        openedBackend = backends.open(kind, fakeLayout);
      } catch (IOException e) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            "cannot open the " + backend + " cgroups: " + e.getMessage(),
            e);
      }
      if (openedBackend.notice() != null) {
        err.println(openedBackend.notice());
      }
    }
    return openedBackend;
  }

  /**
   * The API over the backend with {@code --driver} and {@code --root}, opened at the first call,
   * closed by {@link #run}. The fake with the systemd driver gets an in-memory systemd too.
   */
  ContainerApi api() {
    if (api == null) {
      ApiOptions.Builder options = ApiOptions.builder().driver(driver());
      String root = parsed.value("--root", null);
      if (root != null) {
        options.root(existingRoot(root));
      }
      boolean fake = "fake".equalsIgnoreCase(parsed.value("--backend", "host"));
      api =
          fake && options.build().driver() == ApiOptions.Driver.SYSTEMD
              ? FakeSystemdBackend.open(backend().fs(), options.build())
              : ContainerApi.open(backend().fs(), options.build());
      Logger log =
          LoggerFactory.getLogger(Lmctfy.class); // not a static field: made after configureLogging
      if (log.isInfoEnabled()) {
        List<String> labels = new ArrayList<>();
        for (Hierarchy h : backend().fs().hierarchies()) {
          labels.add(h.label());
          log.debug(
              "hierarchy {} mounted at {} (its cgroup {} there)",
              h.label(),
              h.mountPoint(),
              h.mountRoot());
        }
        log.info(
            "container / is the cgroup {} in the hierarchies {} (driver {})",
            api.root(),
            labels,
            parsed.value("--driver", "auto"));
      }
    }
    return api;
  }

  /** The driver {@code --driver} names (auto by default); INVALID_ARGUMENT for another word. */
  private ApiOptions.Driver driver() {
    String driver = parsed.value("--driver", "auto");
    try {
      return ApiOptions.Driver.valueOf(driver.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "--driver must be auto, systemd or cgroupfs, got \"" + driver + "\"");
    }
  }

  /**
   * The cgroup of {@code --root}, which must be there in every hierarchy that holds containers (all
   * but a named v1 one such as {@code name=systemd}): NOT_FOUND where it is in none (the library
   * would answer every question about it with "nothing there"), FAILED_PRECONDITION where it is in
   * some only, naming where it is missing.
   */
  private CgroupPath existingRoot(String root) {
    CgroupPath path;
    try {
      path = CgroupPath.of(root);
    } catch (IllegalArgumentException e) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT, "--root " + root + ": " + e.getMessage(), e);
    }
    CgroupFs fs = backend().fs();
    List<String> missing = new ArrayList<>();
    int holding = 0;
    for (Hierarchy h : fs.hierarchies()) {
      if (h.version() == CgroupVersion.V1 && h.controllers().isEmpty()) {
        continue;
      }
      holding++;
      try {
        if (!fs.exists(h, path)) {
          missing.add(h.display(path, null));
        }
      } catch (IOException e) {
        throw Invocation.cannot(
            "look up the cgroup of --root " + root + " in " + h.display(path, null), e);
      }
    }
    if (missing.isEmpty()) {
      return path;
    }
    if (missing.size() == holding) {
      throw new LmctfyException(
          ErrorCode.NOT_FOUND,
          "--root "
              + root
              + ": there is no cgroup "
              + root
              + " (in none of "
              + "the "
              + holding
              + " hierarchies, e.g. "
              + missing.get(0)
              + ")");
    }
    throw new LmctfyException(
        ErrorCode.FAILED_PRECONDITION,
        "--root "
            + root
            + ": the cgroup "
            + root
            + " is missing in "
            + missing.size()
            + " of the "
            + holding
            + " hierarchies: "
            + String.join(", ", missing));
  }

  private void close() {
    if (api != null) {
      api.close();
    }
  }
}
