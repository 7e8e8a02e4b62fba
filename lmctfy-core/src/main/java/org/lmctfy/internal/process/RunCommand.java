package org.lmctfy.internal.process;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.spec.VirtualHostSpec;
import org.lmctfy.vhost.Blueprint;

/**
 * Turns an argv and a {@link RunSpec} into the {@link ProcessBuilder} that {@code CgroupFs.start}
 * or {@code VirtualHosts.join} starts, checking what needs no machine (an empty argv, a NUL, a
 * relative path where a virtual host needs an absolute one); what the machine has (the program, the
 * directory, the files) the backend checks below the SPI.
 *
 * <ul>
 *   <li>{@code use_shell}: the argv joined with spaces becomes {@code /bin/sh -c <line>}.
 *   <li>DETACHED: the argv is prefixed with {@code setsid --} (util-linux, from /usr/bin or /bin).
 *       Where the backend spawns with {@code posix_spawn} it makes the session itself and leaves
 *       the prefix out; elsewhere the launcher execs setsid after placing itself, and, never a
 *       process-group leader, setsid makes the new session without forking: the pid stays the same.
 *       Streams not redirected go to {@code /dev/null}.
 *   <li>INHERIT: streams not redirected are pipes to the caller; redirected stdout and stderr are
 *       appended to.
 *   <li>environment: null inherits the caller's; a map is the whole environment.
 * </ul>
 */
public final class RunCommand {
  private static final List<String> SETSID = List.of("/usr/bin/setsid", "/bin/setsid");
  private static final File DEV_NULL = new File("/dev/null");

  private RunCommand() {}

  /** The command to start; checks only what needs no filesystem. */
  public static ProcessBuilder of(List<String> argv, RunSpec spec) {
    if (argv == null || argv.isEmpty()) {
      throw invalid("argv is empty: it needs at least the program to run");
    }
    for (String a : argv) {
      if (a == null || a.indexOf('\0') >= 0) {
        throw invalid("argv " + argv + " has a null or NUL-carrying argument");
      }
    }
    boolean detached = spec.fdPolicy() == RunSpec.FdPolicy.DETACHED;
    List<String> command = new ArrayList<>();
    if (detached) {
      command.add(setsid());
      command.add("--");
    }
    if (Boolean.TRUE.equals(spec.useShell())) {
      command.addAll(List.of("/bin/sh", "-c", String.join(" ", argv)));
    } else {
      command.addAll(argv);
    }
    ProcessBuilder pb = new ProcessBuilder(command);
    if (spec.environment() != null) {
      pb.environment().clear();
      pb.environment().putAll(spec.environment());
    }
    Path dir = spec.workingDirectory() == null ? null : Path.of(spec.workingDirectory());
    if (dir != null) {
      pb.directory(dir.toFile());
    }
    if (spec.stdin() != null) {
      pb.redirectInput(against(dir, spec.stdin()).toFile());
    } else if (detached) {
      pb.redirectInput(DEV_NULL);
    }
    pb.redirectOutput(output(spec.stdout(), dir, detached));
    pb.redirectError(output(spec.stderr(), dir, detached));
    return pb;
  }

  /**
   * The command to start inside a virtual host: as {@link #of}, but the working directory (default
   * {@code /}) is the virtual host's, set as the builder's directory for {@code VirtualHosts.join},
   * and the redirected files are the host's, given by absolute paths; no {@code setsid} (the join
   * makes the new session of DETACHED).
   */
  public static ProcessBuilder forVirtualHost(List<String> argv, RunSpec spec) {
    ProcessBuilder pb =
        of(
            argv,
            RunSpec.builder().environment(spec.environment()).useShell(spec.useShell()).build());
    boolean detached = spec.fdPolicy() == RunSpec.FdPolicy.DETACHED;
    pb.directory(new File(insideDirectory(spec, "")));
    String stdin = hostFile(spec.stdin(), "stdin");
    if (stdin != null) {
      pb.redirectInput(new File(stdin));
    } else if (detached) {
      pb.redirectInput(DEV_NULL);
    }
    pb.redirectOutput(hostOutput(hostFile(spec.stdout(), "stdout"), detached));
    pb.redirectError(hostOutput(hostFile(spec.stderr(), "stderr"), detached));
    return pb;
  }

  /**
   * A virtual host's init as {@code VirtualHosts.start} takes it, from the spec's {@code
   * virtual_host.init}: {@code use_shell} as for a run, its working directory inside (default
   * {@code /}), its redirected files the host's, given by absolute paths; the backend's own init
   * where it names no program.
   */
  public static Blueprint.Init initOf(VirtualHostSpec.Init init) {
    RunSpec run = init == null || init.runSpec() == null ? RunSpec.inherit() : init.runSpec();
    List<String> argv = init == null ? List.of() : init.initArgv();
    if (!argv.isEmpty() && Boolean.TRUE.equals(run.useShell())) {
      argv = List.of("/bin/sh", "-c", String.join(" ", argv));
    }
    return new Blueprint.Init(
        argv,
        run.environment(),
        insideDirectory(run, INIT),
        hostFile(run.stdin(), INIT + "stdin"),
        hostFile(run.stdout(), INIT + "stdout"),
        hostFile(run.stderr(), INIT + "stderr"));
  }

  /** Where a virtual host's init's run spec is, for messages. */
  private static final String INIT = "virtual_host.init.run_spec.";

  /** A working directory inside a virtual host: absolute; {@code /} when not given. */
  private static String insideDirectory(RunSpec spec, String prefix) {
    String dir = spec.workingDirectory() == null ? "/" : spec.workingDirectory();
    if (!dir.startsWith("/")) {
      throw invalid(
          prefix
              + "working_directory "
              + dir
              + ": inside a virtual host it must be an absolute path");
    }
    return dir;
  }

  /** A redirected file of a process in a virtual host: the host's, by an absolute path. */
  private static String hostFile(String file, String field) {
    if (file != null && !file.startsWith("/")) {
      throw invalid(
          field
              + " "
              + file
              + ": in a virtual host, redirections are files of the host, given by absolute"
              + " paths (the working_directory is inside the virtual host)");
    }
    return file;
  }

  private static ProcessBuilder.Redirect hostOutput(String file, boolean detached) {
    return file == null
        ? output(null, null, detached)
        : ProcessBuilder.Redirect.appendTo(new File(file));
  }

  private static Path against(Path dir, String file) {
    return dir == null ? Path.of(file) : dir.resolve(file);
  }

  private static ProcessBuilder.Redirect output(String file, Path dir, boolean detached) {
    if (file == null) {
      return detached ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.PIPE;
    }
    return ProcessBuilder.Redirect.appendTo(against(dir, file).toFile());
  }

  private static boolean isExecutableFile(Path p) {
    return Files.isRegularFile(p) && Files.isExecutable(p);
  }

  /**
   * util-linux's setsid by absolute path; the bare name where it is not there (the backend's check
   * of the program then says so).
   */
  private static String setsid() {
    for (String s : SETSID) {
      if (isExecutableFile(Path.of(s))) {
        return s;
      }
    }
    return "setsid";
  }

  private static LmctfyException invalid(String message) {
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
