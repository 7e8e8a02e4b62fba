package org.lmctfy.examples.cli;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.examples.cli.Command.Opt;
import org.lmctfy.examples.cli.Command.Param;

/**
 * One command line read against the {@link Command} tree: the command it names, its options and
 * parameters, and what the leaf actions share (the API, printing, the spec text).
 *
 * <p>Reading rules: options (the command's own and the root's global ones) may come before or after
 * the words, as {@code --name value}, {@code --name=value} or clustered short flags ({@code -rv});
 * {@code --} ends the options; a word that looks like a negative number is a parameter; {@code
 * -h}/{@code --help} asks for the help of the command named so far and {@code -V}/{@code --version}
 * for the version, whatever else the line says; after the first parameter of a {@linkplain
 * Command#programFollows() program} command every word is a parameter, except a {@code --} right
 * after that first parameter, which only marks where the program starts. A mistake is a {@link
 * UsageError}. Not thread-safe: one per command line.
 */
final class Invocation {
  /** What the command line asks for. */
  enum Request {
    RUN,
    HELP,
    VERSION
  }

  /**
   * A command line the tree cannot read: exit code 3 (INVALID_ARGUMENT) with the command's usage,
   * or 5 (NOT_FOUND) for an unknown command {@code word} of the menu {@code where}.
   */
  static final class UsageError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient List<Command> where;
    final String unknownWord;

    UsageError(List<Command> where, String message, String unknownWord) {
      super(message, null, false, false);
      this.where = List.copyOf(where);
      this.unknownWord = unknownWord;
    }
  }

  /** The default container of commands whose name is optional: the caller's own (or the root). */
  static final String CALLERS_CONTAINER = ".";

  final Lmctfy top;
  final List<Command> path;
  final Request request;
  private final Set<String> flags;
  private final Map<String, String> values;
  private final List<String> params;

  private Invocation(
      Lmctfy top,
      List<Command> path,
      Request request,
      Set<String> flags,
      Map<String, String> values,
      List<String> params) {
    this.top = top;
    this.path = List.copyOf(path);
    this.request = request;
    this.flags = flags;
    this.values = values;
    this.params = params;
  }

  /**
   * Reads {@code args} against the tree {@code root}, for {@code top}; a mistake is a {@link
   * UsageError}.
   */
  static Invocation parse(Lmctfy top, Command root, String[] args) {
    List<Command> path = new ArrayList<>(List.of(root));
    Set<String> flags = new HashSet<>();
    Map<String, String> values = new HashMap<>();
    List<String> params = new ArrayList<>();
    boolean optionsEnded = false;
    boolean programDashes = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      Command cmd = path.get(path.size() - 1);
      boolean programWord = cmd.programFollows() && !params.isEmpty();
      if (programWord && params.size() == 1 && !programDashes && a.equals("--")) {
        programDashes = true; // run /c -- ls: ends lmctfy's words, is not the program's
        continue;
      }
      if (!optionsEnded && !programWord && a.equals("--")) {
        optionsEnded = true;
        continue;
      }
      if (!optionsEnded
          && !programWord
          && a.length() > 1
          && a.startsWith("-")
          && !isNegativeNumber(a, cmd, root)) {
        int eq = a.startsWith("--") ? a.indexOf('=') : -1;
        String name = eq < 0 ? a : a.substring(0, eq);
        Opt o = option(name, cmd, root);
        if (o == null && eq < 0 && !a.startsWith("--") && cluster(a, cmd, root, flags)) {
          continue;
        }
        if (o == null) {
          throw new UsageError(path, "Unknown option: '" + a + "'", null);
        }
        String key = o.names().get(0);
        if (key.equals("-h")) {
          return new Invocation(top, path, Request.HELP, flags, values, params);
        }
        if (key.equals("-V")) {
          return new Invocation(top, path, Request.VERSION, flags, values, params);
        }
        if (o.label() == null) {
          if (eq >= 0) {
            throw new UsageError(
                path, "option '" + name + "' takes no value, got '" + a + "'", null);
          }
          flags.add(key);
        } else if (eq >= 0) {
          values.put(key, a.substring(eq + 1));
        } else if (i + 1 < args.length) {
          values.put(key, args[++i]);
        } else {
          throw new UsageError(
              path,
              "Missing required parameter for option '" + name + "' (" + o.label() + ")",
              null);
        }
        continue;
      }
      if (!cmd.subcommands().isEmpty()) {
        Command sub = cmd.subcommand(a);
        if (sub == null) {
          throw new UsageError(path, "unknown command '" + a + "'", a);
        }
        path.add(sub);
        continue;
      }
      params.add(a);
    }
    Command cmd = path.get(path.size() - 1);
    if (!cmd.subcommands().isEmpty()) {
      throw new UsageError(path, "Missing required subcommand", null);
    }
    checkCount(path, cmd, params);
    return new Invocation(top, path, Request.RUN, flags, values, params);
  }

  private static Opt option(String name, Command cmd, Command root) {
    Opt own = cmd.option(name);
    return own != null ? own : root.option(name);
  }

  /** {@code -rv}: sets each letter's flag if every letter is one. */
  private static boolean cluster(String a, Command cmd, Command root, Set<String> flags) {
    List<String> keys = new ArrayList<>();
    for (int j = 1; j < a.length(); j++) {
      Opt o = option("-" + a.charAt(j), cmd, root);
      if (o == null
          || o.label() != null
          || o.names().get(0).equals("-h")
          || o.names().get(0).equals("-V")) {
        return false;
      }
      keys.add(o.names().get(0));
    }
    flags.addAll(keys);
    return true;
  }

  private static boolean isNegativeNumber(String a, Command cmd, Command root) {
    if (option(a, cmd, root) != null) {
      return false;
    }
    for (int j = 1; j < a.length(); j++) {
      if (!Character.isDigit(a.charAt(j))) {
        return false;
      }
    }
    return true;
  }

  private static void checkCount(List<Command> path, Command cmd, List<String> params) {
    int at = 0;
    for (Param p : cmd.params()) {
      if (p.many()) {
        if (params.size() - at < p.min()) {
          throw new UsageError(path, "Missing required parameter: '" + p.label() + "'", null);
        }
        return;
      }
      if (at >= params.size()) {
        if (p.min() > 0) {
          throw new UsageError(path, "Missing required parameter: '" + p.label() + "'", null);
        }
        return;
      }
      at++;
    }
    if (at < params.size()) {
      throw new UsageError(
          path, "Unmatched argument at index " + at + ": '" + params.get(at) + "'", null);
    }
  }

  /** The command line's command. */
  Command command() {
    return path.get(path.size() - 1);
  }

  /** Whether the flag known by {@code key} (its first name) was given. */
  boolean flag(String key) {
    return flags.contains(key);
  }

  /** The value of the option known by {@code key}, or {@code otherwise}. */
  String value(String key, String otherwise) {
    return values.getOrDefault(key, otherwise);
  }

  /** Parameter {@code index}, or {@code otherwise} when the line has none there. */
  String param(int index, String otherwise) {
    return index < params.size() ? params.get(index) : otherwise;
  }

  /** The parameters from {@code index} on. */
  List<String> paramsFrom(int index) {
    return List.copyOf(params.subList(Math.min(index, params.size()), params.size()));
  }

  /**
   * Parameter {@code value} (of the one labelled {@code label}) as an integer; a usage error if it
   * is none.
   */
  long number(String value, String label) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new UsageError(
          path, "Invalid value for " + label + ": '" + value + "' is not an integer", null);
    }
  }

  ContainerApi api() {
    return top.api();
  }

  /** Prints {@code output} in the chosen style; returns 0 (OK). */
  int print(Output output) {
    output.print(top.out, top.style());
    return 0;
  }

  /**
   * The spec text: from {@code -c file} or the parameter {@code index}, exactly one of them, as
   * lmctfy required ({@code allowNeither}: neither means an empty spec).
   */
  String specText(int index, boolean allowNeither) {
    String file = value("-c", null);
    String inline = param(index, null);
    if (file != null && inline != null) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT, "give the spec inline or with -c <file>, not both");
    }
    if (file == null && inline == null) {
      if (allowNeither) {
        return "";
      }
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT, "a spec is needed, inline or with -c <file>");
    }
    if (inline != null) {
      return inline;
    }
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (CharacterCodingException e) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "the spec file " + file + " (-c) is not UTF-8 text: " + e.getMessage(),
          e);
    } catch (IOException e) {
      throw cannot("read the spec file " + file + " (-c)", e);
    } catch (InvalidPathException e) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT, "-c " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * What the tool could not do with a file or cgroup the caller named ({@code what}: "read the spec
   * file f (-c)"): the errno, and a status by it as the library's errno table gives those errnos:
   * NOT_FOUND where the file is absent, PERMISSION_DENIED where it may not be used,
   * INVALID_ARGUMENT for any other reason it is unusable (a directory, a loop of links, a path
   * through a file).
   */
  static LmctfyException cannot(String what, IOException e) {
    Errno errno = errnoOf(e);
    ErrorCode code =
        switch (errno) {
          case ENOENT -> ErrorCode.NOT_FOUND;
          case EACCES, EPERM -> ErrorCode.PERMISSION_DENIED;
          default -> ErrorCode.INVALID_ARGUMENT;
        };
    String why =
        errno == Errno.UNKNOWN
            ? String.valueOf(e.getMessage())
            : errno + " (" + errno.description() + ")";
    return new LmctfyException(code, "cannot " + what + ": " + why, e);
  }

  /**
   * The errno behind a failure: a cgroup filesystem's own, or one Java's file API names by its
   * exception (ENOENT, EACCES) or by the C library's text for it (the {@linkplain
   * FileSystemException#getReason() reason}, or the message of a failed read such as "Is a
   * directory"); UNKNOWN where it says none.
   */
  static Errno errnoOf(IOException e) {
    if (e instanceof CgroupFsException fs) {
      return fs.errno();
    }
    if (e instanceof NoSuchFileException) {
      return Errno.ENOENT;
    }
    if (e instanceof AccessDeniedException) {
      return Errno.EACCES;
    }
    String text = e instanceof FileSystemException fs ? fs.getReason() : e.getMessage();
    if (text != null) {
      for (Errno errno : Errno.values()) {
        if (errno != Errno.UNKNOWN && text.startsWith(errno.description())) {
          return errno;
        }
      }
    }
    return Errno.UNKNOWN;
  }

  /**
   * lmctfy's default process for {@code detect} and {@code enter}: the caller's parent (the shell).
   */
  static long parentPid() {
    return ProcessHandle.current()
        .parent()
        .map(ProcessHandle::pid)
        .orElseThrow(
            () ->
                new LmctfyException(
                    ErrorCode.FAILED_PRECONDITION,
                    "this process has no parent to default to; give a pid"));
  }
}
