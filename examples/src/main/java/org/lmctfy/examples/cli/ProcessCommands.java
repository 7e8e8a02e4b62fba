package org.lmctfy.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.examples.cli.Command.Opt;
import org.lmctfy.examples.cli.Command.Param;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.RunSpec;

/** The commands about the processes in containers, and notifications. */
final class ProcessCommands {
  private ProcessCommands() {}

  private static final Param NAME = Param.one("<name>", "The container, e.g. /test.");

  static Command enter() {
    return Command.leaf(
        "enter",
        List.of("Move threads into a container (default: the parent of lmctfy, the shell)."),
        in -> {
          List<Long> tids = new ArrayList<>();
          for (String tid : in.paramsFrom(1)) {
            tids.add(in.number(tid, "<tid>"));
          }
          in.api()
              .get(in.param(0, null))
              .enter(tids.isEmpty() ? List.of(Invocation.parentPid()) : tids);
          return 0;
        },
        List.of(),
        NAME,
        Param.repeated("<tid>", 0, "Default: the parent of lmctfy, the shell."));
  }

  static Command killAll() {
    return Command.leaf(
        "killall",
        List.of("Kill every process in a container and its subcontainers."),
        in -> {
          in.api().get(in.param(0, null)).killAll();
          return 0;
        },
        List.of(),
        NAME);
  }

  static Command pause() {
    return Command.leaf(
        "pause",
        List.of("Freeze every process in a container and its subcontainers."),
        in -> {
          in.api().get(in.param(0, null)).pause();
          return 0;
        },
        List.of(),
        NAME);
  }

  static Command resume() {
    return Command.leaf(
        "resume",
        List.of("Thaw what pause froze."),
        in -> {
          in.api().get(in.param(0, null)).resume();
          return 0;
        },
        List.of(),
        NAME);
  }

  static Command run() {
    return Command.leaf(
            "run",
            List.of(
                "Run a command inside a container.",
                "A single argument with a space runs "
                    + "through /bin/sh -c. Without -n: wait, with the terminal's streams, pass INT, TERM and HUP on to the "
                    + "command, and exit with its status (128+n if signal n ended it), as a shell does.",
                "lmctfy's own failures come before the command starts and print \"Command exited with error message: "
                    + "<code>: ...\" on stderr: that line tells lmctfy's code from the command's status of the same number.",
                "With -n: start it detached (new session, streams on /dev/null) and print pid=...",
                "Everything after <name> is the command: run /c ls -l keeps -l; a -- right after <name> only marks "
                    + "where it starts (run /c -- ls runs ls)."),
            ProcessCommands::run,
            List.of(Opt.flag("Start detached and print its pid.", "-n", "--no-wait")),
            NAME,
            Param.repeated("<command>", 1, "The program and its arguments."))
        .withProgram();
  }

  private static int run(Invocation in) throws Exception {
    List<String> command = in.paramsFrom(1);
    List<String> argv =
        command.size() == 1 && command.get(0).contains(" ")
            ? List.of("/bin/sh", "-c", command.get(0))
            : command;
    Container c = in.api().get(in.param(0, null));
    if (in.flag("-n")) {
      return in.print(new Output().add("pid", c.run(argv, RunSpec.detached()).pid()));
    }
    Backend backend = in.top.backend();
    if (!backend.endsPrograms()) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "the fake backend runs no program, so run would "
              + "wait forever; use run -n to see where it would be placed");
    }
    try (ProgramSignals signals = ProgramSignals.install(backend.signals(), in.top.err)) {
      ContainerProcess p = c.run(argv, RunSpec.inherit());
      signals.started(p);
      try {
        Pump stdout =
            new Pump(p.stdout(), in.top.out, in.top.err, "copy of the program's stdout", false);
        Pump stderr =
            new Pump(p.stderr(), in.top.err, in.top.err, "copy of the program's stderr", false);
        Pump stdin =
            new Pump(in.top.in, p.stdin(), in.top.err, "copy to the program's stdin", true);
        int code = p.waitFor();
        stdout.thread.join();
        stderr.thread.join();
        stdin.thread.interrupt(); // a read of the terminal may still block; the thread is a daemon
        return code;
      } catch (InterruptedException | RuntimeException | Error e) {
        // lmctfy ends abnormally: the program does not go on unwatched
        if (p.exitCode().isEmpty()) {
          try {
            backend.signals().send(p.pid(), "KILL");
          } catch (IOException | RuntimeException kill) {
            e.addSuppressed(kill);
          }
        }
        throw e;
      }
    }
  }

  /**
   * Copies a stream on a daemon thread until its end, as a pipe would, flushing as it goes.
   *
   * <ul>
   *   <li>lmctfy's stdin to the program's: closed at the input's end; the copy stops when the
   *       program no longer reads (it has exited or closed its stdin), as a pipe's writer would.
   *   <li>The program's stdout and stderr to lmctfy's: when lmctfy's own fails (its reader went
   *       away: {@code lmctfy run /c yes | head -1}), the copy closes the program's end of the
   *       pipe, so the program's next write fails with EPIPE (or SIGPIPE), as without lmctfy in
   *       between: the program meets the failure, and its status says what it made of it.
   *   <li>A read that fails (not expected of a pipe) is said on lmctfy's stderr, as {@code lmctfy:
   *       ...}, and ends that copy; the exit code stays the program's.
   * </ul>
   */
  private static final class Pump {
    final Thread thread;

    Pump(InputStream from, OutputStream to, PrintStream err, String what, boolean toProgram) {
      thread =
          new Thread(
              () -> {
                byte[] buffer = new byte[8192];
                try {
                  for (int n; (n = from.read(buffer)) >= 0; ) {
                    if (!(toProgram
                        ? toProgram(to, buffer, n)
                        : toLmctfy((PrintStream) to, buffer, n))) {
                      break;
                    }
                  }
                } catch (IOException e) {
                  err.println("lmctfy: " + what + " stopped: " + e);
                  err.flush();
                } finally {
                  close(toProgram ? to : from);
                }
              },
              toProgram ? "lmctfy-run-stdin" : "lmctfy-run-output");
      thread.setDaemon(true);
      thread.start();
    }

    private static boolean toProgram(OutputStream to, byte[] buffer, int n) {
      try {
        to.write(buffer, 0, n);
        to.flush();
        return true;
      } catch (IOException e) {
        return false; // the program reads no more: what is left is not for it
      }
    }

    private static boolean toLmctfy(PrintStream to, byte[] buffer, int n) {
      to.write(buffer, 0, n);
      return !to.checkError(); // flushes; a PrintStream keeps its IOException to itself
    }

    private static void close(java.io.Closeable c) {
      try {
        c.close();
      } catch (IOException e) {
        // closing a pipe of the program that it closed already: nothing is lost
      }
    }
  }

  static Command notifications() {
    return Command.menu(
        "notify",
        List.of("Wait for one event of a container."),
        Command.menu(
            "memory",
            List.of("Memory events."),
            Command.leaf(
                "oom",
                List.of(
                    "Block until the container is out of memory; print notification_status=<code>."),
                in -> await(in, EventSpec.oom()),
                List.of(),
                NAME),
            Command.leaf(
                "threshold",
                List.of(
                    "Block until memory usage crosses <bytes>; print "
                        + "notification_status=<code>."),
                in -> await(in, EventSpec.memoryThreshold(in.number(in.param(1, null), "<bytes>"))),
                List.of(),
                NAME,
                Param.one("<bytes>", "The usage to wait for."))));
  }

  /** Registers {@code event}, blocks until one notification, prints its status and returns it. */
  private static int await(Invocation in, EventSpec event) throws InterruptedException {
    String name = in.param(0, null);
    Container c = in.api().get(name);
    BlockingQueue<ErrorCode> statuses = new LinkedBlockingQueue<>();
    long id = c.registerNotification(event, n -> statuses.add(n.status()));
    ErrorCode status;
    try {
      status = statuses.take();
    } finally {
      if (in.api().exists(name)) {
        c.unregisterNotification(id);
      }
    }
    in.print(new Output().add("notification_status", status.number()));
    return status.number();
  }
}
