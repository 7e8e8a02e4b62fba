package org.lmctfy.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
    return Command.leaf("enter", List.of("Move threads into a container (default: the parent of lmctfy, the shell)."),
        in -> {
          List<Long> tids = new ArrayList<>();
          for (String tid : in.paramsFrom(1)) {
            tids.add(in.number(tid, "<tid>"));
          }
          in.api().get(in.param(0, null)).enter(tids.isEmpty() ? List.of(Invocation.parentPid()) : tids);
          return 0;
        }, List.of(), NAME, Param.repeated("<tid>", 0, "Default: the parent of lmctfy, the shell."));
  }

  static Command killAll() {
    return Command.leaf("killall", List.of("Kill every process in a container and its subcontainers."), in -> {
      in.api().get(in.param(0, null)).killAll();
      return 0;
    }, List.of(), NAME);
  }

  static Command pause() {
    return Command.leaf("pause", List.of("Freeze every process in a container and its subcontainers."), in -> {
      in.api().get(in.param(0, null)).pause();
      return 0;
    }, List.of(), NAME);
  }

  static Command resume() {
    return Command.leaf("resume", List.of("Thaw what pause froze."), in -> {
      in.api().get(in.param(0, null)).resume();
      return 0;
    }, List.of(), NAME);
  }

  static Command run() {
    return Command.leaf("run", List.of("Run a command inside a container.", "A single argument with a space runs "
        + "through /bin/sh -c. Without -n: wait, with the terminal's streams, and exit with the command's code.",
        "With -n: start it detached (new session, streams on /dev/null) and print pid=...",
        "Everything after <name> is the command: run /c ls -l keeps -l; a -- right after <name> only marks "
            + "where it starts (run /c -- ls runs ls)."), ProcessCommands::run,
        List.of(Opt.flag("Start detached and print its pid.", "-n", "--no-wait")), NAME,
        Param.repeated("<command>", 1, "The program and its arguments.")).withProgram();
  }

  private static int run(Invocation in) throws Exception {
    List<String> command = in.paramsFrom(1);
    List<String> argv = command.size() == 1 && command.get(0).contains(" ")
        ? List.of("/bin/sh", "-c", command.get(0)) : command;
    Container c = in.api().get(in.param(0, null));
    if (in.flag("-n")) {
      return in.print(new Output().add("pid", c.run(argv, RunSpec.detached()).pid()));
    }
    if (!in.top.backend().endsPrograms()) {
      throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, "the fake backend runs no program, so run would "
          + "wait forever; use run -n to see where it would be placed");
    }
    ContainerProcess p = c.run(argv, RunSpec.inherit());
    Pump stdout = new Pump(p.stdout(), in.top.out, false);
    Pump stderr = new Pump(p.stderr(), in.top.err, false);
    Pump stdin = new Pump(in.top.in, p.stdin(), true);
    int code = p.waitFor();
    stdout.finish();
    stderr.finish();
    stdin.thread.interrupt(); // a read of the terminal may still block; the thread is a daemon
    return code;
  }

  /**
   * Copies a stream on a daemon thread. The program's output is copied to its end and a failure
   * is rethrown by {@link #finish}; the copy to the program's stdin closes it at the input's end,
   * and stops quietly when the program has exited without reading it all (a broken pipe).
   */
  private static final class Pump {
    final Thread thread;
    private volatile IOException failure;

    Pump(InputStream from, OutputStream to, boolean toProgram) {
      thread = new Thread(() -> {
        try {
          from.transferTo(to);
          to.flush();
          if (toProgram) {
            to.close();
          }
        } catch (IOException e) {
          if (!toProgram) {
            failure = e;
          }
        }
      }, toProgram ? "lmctfy-run-stdin" : "lmctfy-run-output");
      thread.setDaemon(true);
      thread.start();
    }

    void finish() throws InterruptedException, IOException {
      thread.join();
      if (failure != null) {
        throw new IOException("copying the program's output", failure);
      }
    }
  }

  static Command notifications() {
    return Command.menu("notify", List.of("Wait for one event of a container."),
        Command.menu("memory", List.of("Memory events."),
            Command.leaf("oom", List.of("Block until the container is out of memory; print notification_status=<code>."),
                in -> await(in, EventSpec.oom()), List.of(), NAME),
            Command.leaf("threshold", List.of("Block until memory usage crosses <bytes>; print "
                + "notification_status=<code>."),
                in -> await(in, EventSpec.memoryThreshold(in.number(in.param(1, null), "<bytes>"))), List.of(), NAME,
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
