package org.lmctfy.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.RunSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands about the processes in containers, and notifications. */
final class ProcessCommands {
  private ProcessCommands() {}

  @Command(name = "enter", description = "Move threads into a container (default: the parent of lmctfy, the shell).")
  static final class Enter extends Cmd {
    @Parameters(index = "0", paramLabel = "<name>")
    String name;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "<tid>")
    List<Long> tids;

    @Override
    public Integer call() {
      api().get(name).enter(tids == null || tids.isEmpty() ? List.of(parentPid()) : tids);
      return 0;
    }
  }

  @Command(name = "killall", description = "Kill every process in a container and its subcontainers.")
  static final class KillAll extends Cmd {
    @Parameters(paramLabel = "<name>")
    String name;

    @Override
    public Integer call() {
      api().get(name).killAll();
      return 0;
    }
  }

  @Command(name = "pause", description = "Freeze every process in a container and its subcontainers.")
  static final class Pause extends Cmd {
    @Parameters(paramLabel = "<name>")
    String name;

    @Override
    public Integer call() {
      api().get(name).pause();
      return 0;
    }
  }

  @Command(name = "resume", description = "Thaw what pause froze.")
  static final class Resume extends Cmd {
    @Parameters(paramLabel = "<name>")
    String name;

    @Override
    public Integer call() {
      api().get(name).resume();
      return 0;
    }
  }

  @Command(name = "run", description = {"Run a command inside a container.", "A single argument with a space runs through /bin/sh -c. Without -n: wait, with the terminal's streams, and exit with the command's code.",
      "With -n: start it detached (new session, streams on /dev/null) and print pid=...",
      "Everything after <name> is the command: run /c ls -l keeps -l."})
  static final class Run extends Cmd {
    @Option(names = {"-n", "--no-wait"}, description = "Start detached and print its pid.")
    boolean noWait;

    @Parameters(index = "0", paramLabel = "<name>")
    String name;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "<command>")
    List<String> command;

    @Override
    public Integer call() throws Exception {
      List<String> argv = command.size() == 1 && command.get(0).contains(" ")
          ? List.of("/bin/sh", "-c", command.get(0)) : command;
      Container c = api().get(name);
      if (noWait) {
        return print(new Output().add("pid", c.run(argv, RunSpec.detached()).pid()));
      }
      if (!top().backend().endsPrograms()) {
        throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, "the fake backend runs no program, so run would "
            + "wait forever; use run -n to see where it would be placed");
      }
      ContainerProcess p = c.run(argv, RunSpec.inherit());
      Pump stdout = new Pump(p.stdout(), top().out, false);
      Pump stderr = new Pump(p.stderr(), top().err, false);
      Pump stdin = new Pump(top().in, p.stdin(), true);
      int code = p.waitFor();
      stdout.finish();
      stderr.finish();
      stdin.thread.interrupt(); // a read of the terminal may still block; the thread is a daemon
      return code;
    }
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

  @Command(name = "notify", description = "Wait for one event of a container.", subcommands = NotifyMemory.class)
  static final class Notify {}

  @Command(name = "memory", description = "Memory events.", subcommands = {NotifyOom.class, NotifyThreshold.class})
  static final class NotifyMemory {}

  /** Both notify commands: register, block until one event, print its status. */
  abstract static class NotifyCmd extends Cmd {
    @Parameters(index = "0", paramLabel = "<name>")
    String name;

    int await(EventSpec event) throws InterruptedException {
      Container c = api().get(name);
      BlockingQueue<ErrorCode> statuses = new LinkedBlockingQueue<>();
      long id = c.registerNotification(event, n -> statuses.add(n.status()));
      ErrorCode status;
      try {
        status = statuses.take();
      } finally {
        if (api().exists(name)) {
          c.unregisterNotification(id);
        }
      }
      print(new Output().add("notification_status", status.number()));
      return status.number();
    }
  }

  @Command(name = "oom", description = "Block until the container is out of memory; print notification_status=<code>.")
  static final class NotifyOom extends NotifyCmd {
    @Override
    public Integer call() throws InterruptedException {
      return await(EventSpec.oom());
    }
  }

  @Command(name = "threshold", description = "Block until memory usage crosses <bytes>; print notification_status=<code>.")
  static final class NotifyThreshold extends NotifyCmd {
    @Parameters(index = "1", paramLabel = "<bytes>")
    long bytes;

    @Override
    public Integer call() throws InterruptedException {
      return await(EventSpec.memoryThreshold(bytes));
    }
  }
}
