package org.lmctfy.testing;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.internal.fake.Kernel;

/**
 * The process table of a {@link FakeCgroupFs}: processes and threads a test makes and ends, and
 * what the processes the fake {@link FakeCgroupFs#start starts} do ({@link #onRun}), as
 * MockWebServer's dispatcher scripts its responses. None of it is a recorded mutation, and no fault
 * applies to it.
 *
 * <p>Thread-safe: every method holds the fake's lock.
 *
 * <pre>{@code
 * long pid = fs.processes().spawn();                          // in every hierarchy's root
 * fs.write(memory, CgroupPath.of("/job"), "cgroup.procs", Long.toString(pid));
 * fs.processes().exitAll(memory, CgroupPath.of("/job"));      // the job ends
 * }</pre>
 *
 * @since 0.2
 */
public final class FakeProcesses {
  private final Object lock;
  private final Kernel kernel;
  private final Map<Long, List<String>> commands = new HashMap<>();
  private final Map<Long, FakeRun> runs = new HashMap<>();
  private final Map<Long, FakeVirtualHost> virtualHosts = new HashMap<>();
  private FakeRun.Script script = command -> null;

  /** Ends scripted processes at their time; made on first use, its one thread ends when idle. */
  private @Nullable ScheduledThreadPoolExecutor exits;

  /**
   * Threads in {@link #awaitExit}'s wait; a mutation wakes them only if there are any (notifyAll is
   * not free).
   */
  private int waiters;

  FakeProcesses(Object lock, Kernel kernel) {
    this.lock = lock;
    this.kernel = kernel;
  }

  /**
   * The pid standing for the test's own process, as {@link FakeCgroupFs#selfPid()}; like pid 1 it
   * starts in every hierarchy's root.
   *
   * @return the test's own pid
   */
  public long self() {
    synchronized (lock) {
      return kernel.selfPid();
    }
  }

  /**
   * Starts a process with one thread (tid == pid) in every hierarchy's root cgroup.
   *
   * @return its pid
   */
  public long spawn() {
    synchronized (lock) {
      long pid = kernel.spawnProcess();
      kernel.changed();
      return pid;
    }
  }

  /**
   * Adds a thread to process {@code pid}, in the process's cgroups.
   *
   * @param pid the process id
   * @return the thread's tid
   */
  public long spawnThread(long pid) {
    synchronized (lock) {
      long tid = kernel.spawnThread(pid);
      kernel.changed();
      return tid;
    }
  }

  /**
   * Forks process {@code pid}: a child with one thread in the parent's cgroups, as fork(2) makes
   * it.
   *
   * @param pid the parent's process id
   * @return the child's process id
   */
  public long fork(long pid) {
    synchronized (lock) {
      long child = kernel.forkProcess(pid);
      kernel.changed();
      return child;
    }
  }

  /**
   * Ends a process with status 0: it and its threads leave every cgroup.
   *
   * @param pid the process id
   */
  public void exit(long pid) {
    exit(pid, 0);
  }

  /**
   * Ends a process with an exit status, which a {@link FakeCgroupFs#start started} process's
   * waitFor returns.
   *
   * @param pid the process id
   * @param status the exit status
   */
  public void exit(long pid, int status) {
    synchronized (lock) {
      kernel.exitProcess(pid, status);
      lock.notifyAll();
      kernel.changed();
    }
  }

  /**
   * The pids of the living processes.
   *
   * @return the pids of the living processes
   */
  public Set<Long> living() {
    synchronized (lock) {
      return kernel.processes();
    }
  }

  /**
   * Every process with a thread in the cgroup (not its descendants) exits, as when the last job of
   * a container ends: v2 {@code cgroup.events} then reads {@code populated 0} if no descendant has
   * processes.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @throws IllegalArgumentException if there is no such cgroup
   */
  public void exitAll(Hierarchy h, CgroupPath path) {
    synchronized (lock) {
      String tids;
      try {
        tids = kernel.read(h, path, h.version() == CgroupVersion.V2 ? "cgroup.threads" : "tasks");
      } catch (CgroupFsException e) {
        throw new IllegalArgumentException(
            "no cgroup " + h.display(path, null) + " in the fake", e);
      }
      Set<Long> pids = new TreeSet<>();
      for (String tid : tids.split("\n")) {
        if (!tid.isBlank()) {
          pids.add(kernel.pidOf(Long.parseLong(tid.strip())));
        }
      }
      pids.forEach(kernel::exitProcess);
      kernel.changed();
    }
  }

  /**
   * Scripts what every process {@link FakeCgroupFs#start} starts from now on does, decided from its
   * command: MockWebServer's dispatcher for processes. The script runs under the fake's lock: it
   * must not call the fake.
   *
   * <pre>{@code
   * fs.processes().onRun(command -> FakeRun.exits(3).after(Duration.ofMillis(10)).writes("done\n"));
   * }</pre>
   *
   * @param script what a process does, from its command line
   */
  public void onRun(FakeRun.Script script) {
    synchronized (lock) {
      this.script = Objects.requireNonNull(script, "script");
    }
  }

  /**
   * {@link #onRun(FakeRun.Script)} with one behaviour for every command.
   *
   * @param run what every started process does
   */
  public void onRun(FakeRun run) {
    Objects.requireNonNull(run, "run");
    onRun(command -> run);
  }

  /**
   * The command a process {@link FakeCgroupFs#start} started would have run (a virtual host's init:
   * its {@code init_argv}, or {@code [catatonit, -P]}), or empty for other pids.
   *
   * @param pid the process id
   * @return the command, or empty
   */
  public Optional<List<String>> commandOf(long pid) {
    synchronized (lock) {
      return Optional.ofNullable(commands.get(pid));
    }
  }

  /**
   * The virtual host a process runs in: its init's, with the spec it was made from; empty for a
   * process in none (or one that does not run).
   *
   * @param pid the process id
   * @return the virtual host, or empty
   */
  public Optional<FakeVirtualHost> virtualHostOf(long pid) {
    synchronized (lock) {
      if (!kernel.processes().contains(pid)) {
        return Optional.empty();
      }
      Long init = kernel.initOf(pid);
      return init == null ? Optional.empty() : Optional.ofNullable(virtualHosts.get(init));
    }
  }

  // ---- What FakeCgroupFs and FakeProcess call, under the fake's lock.

  /**
   * Runs the script for {@code pid}, placed by {@link FakeCgroupFs#start}: remembers its command,
   * forks its children, writes its output and schedules its exit.
   */
  FakeProcess started(long pid, ProcessBuilder command) throws CgroupFsException {
    List<String> argv = List.copyOf(command.command());
    commands.put(pid, argv);
    FakeRun run = script.apply(argv);
    if (run == null) {
      run = FakeRun.runsUntilEnded();
    }
    runs.put(pid, run);
    for (int i = 0; i < run.children(); i++) {
      kernel.forkProcess(pid);
    }
    FakeProcess process =
        new FakeProcess(
            this,
            pid,
            output(command.redirectOutput(), run.stdout(), System.out),
            output(command.redirectError(), run.stderr(), System.err));
    Integer exitCode = run.exitCode();
    if (exitCode != null) {
      if (run.after().isZero()) {
        endIfRunning(pid, exitCode);
      } else {
        scheduleExit(pid, exitCode, run.after().toNanos());
      }
    }
    return process;
  }

  /** Records the virtual host whose init is {@code host.initPid()}. */
  void madeVirtualHost(FakeVirtualHost host) {
    virtualHosts.put(host.initPid(), host);
  }

  /** After a mutation: wakes the waiters of {@link #awaitExit}, as a kill may have ended one. */
  void mutated() {
    if (waiters > 0) {
      lock.notifyAll();
    }
  }

  /** Whether a SIGTERM leaves {@code pid} running (its script says it ignores one). */
  boolean ignoresSigterm(long pid) {
    synchronized (lock) {
      FakeRun run = runs.get(pid);
      return run != null && run.ignoresSigterm();
    }
  }

  void endIfRunning(long pid, int status) {
    synchronized (lock) {
      if (kernel.exitStatus(pid) == null && kernel.processes().contains(pid)) {
        kernel.exitProcess(pid, status);
        lock.notifyAll();
      }
    }
  }

  @Nullable Integer exitStatusOf(long pid) {
    synchronized (lock) {
      return kernel.exitStatus(pid);
    }
  }

  /** Waits up to {@code nanos} for a started process to end; its exit status, or null. */
  @Nullable Integer awaitExit(long pid, long nanos) throws InterruptedException {
    long end = System.nanoTime() + nanos;
    synchronized (lock) {
      while (true) {
        Integer status = kernel.exitStatus(pid);
        long left = end - System.nanoTime();
        if (status != null || left <= 0) {
          return status;
        }
        waiters++;
        try {
          lock.wait(Math.max(1, Math.min(left / 1_000_000, 100)));
        } finally {
          waiters--;
        }
      }
    }
  }

  /** Ends {@code pid} with {@code status} in {@code nanos}, or once no freezer holds it. */
  private void scheduleExit(long pid, int status, long nanos) {
    ScheduledThreadPoolExecutor executor = exits;
    if (executor == null) {
      executor =
          new ScheduledThreadPoolExecutor(
              1,
              r -> {
                Thread t = new Thread(r, "fake-cgroupfs-exits");
                t.setDaemon(true);
                return t;
              });
      executor.setKeepAliveTime(1, TimeUnit.SECONDS);
      executor.allowCoreThreadTimeOut(true);
      exits = executor;
    }
    executor.schedule(
        () -> {
          synchronized (lock) {
            if (kernel.processes().contains(pid) && kernel.frozen(pid)) {
              scheduleExit(pid, status, TimeUnit.MILLISECONDS.toNanos(5)); // held: as on the kernel
              return;
            }
            endIfRunning(pid, status);
            kernel.changed();
          }
        },
        nanos,
        TimeUnit.NANOSECONDS);
  }

  /**
   * What a scripted process wrote to a stream: the bytes for a pipe; written out for a file or
   * INHERIT.
   */
  private static byte[] output(ProcessBuilder.Redirect to, String text, PrintStream own)
      throws CgroupFsException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0) {
      return bytes;
    }
    switch (to.type()) {
      case PIPE:
        return bytes;
      case INHERIT:
        own.write(bytes, 0, bytes.length);
        own.flush();
        return new byte[0];
      case WRITE:
      case APPEND:
        if (to.file() == null) {
          return new byte[0]; // DISCARD is a WRITE to no file
        }
        try {
          Files.write(
              to.file().toPath(),
              bytes,
              StandardOpenOption.CREATE,
              to.type() == ProcessBuilder.Redirect.Type.APPEND
                  ? StandardOpenOption.APPEND
                  : StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
          throw new CgroupFsException(
              Operation.WRITE,
              to.file().toString(),
              null,
              Errno.EIO,
              "a scripted process could not write its output: " + e.getMessage());
        }
        return new byte[0];
      default:
        return new byte[0];
    }
  }
}
