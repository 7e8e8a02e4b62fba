package org.lmctfy.internal.kernel.launch;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.lmctfy.internal.libc.Pidfd;
import org.lmctfy.internal.libc.Spawn;

/**
 * A process {@link Spawner} spawned into its cgroup: the JVM's child, which the JDK does not know
 * and does not reap; a thread of its own waits for it ({@code waitpid}) and reaps it. Signals go
 * through a pidfd opened before that thread started, while the pid was certainly its own.
 */
final class SpawnedProcess extends Process {
  private final int pid;
  private final @Nullable Pidfd pidfd;
  private final Optional<ProcessHandle> handle;
  private final OutputStream stdin;
  private final InputStream stdout;
  private final InputStream stderr;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();

  SpawnedProcess(int pid, OutputStream stdin, InputStream stdout, InputStream stderr) {
    this.pid = pid;
    this.pidfd = Pidfd.open(pid); // our unreaped child: the pid is its own
    this.handle = ProcessHandle.of(pid);
    this.stdin = stdin;
    this.stdout = stdout;
    this.stderr = stderr;
    Thread reaper =
        new Thread(
            null,
            () -> {
              int status = Spawn.waitpid(pid);
              if (pidfd != null) {
                pidfd.close();
              }
              exit.complete(status);
            },
            "lmctfy-reaper-" + pid,
            128 << 10);
    reaper.setDaemon(true);
    reaper.start();
  }

  @Override
  public long pid() {
    return pid;
  }

  @Override
  public OutputStream getOutputStream() {
    return stdin;
  }

  @Override
  public InputStream getInputStream() {
    return stdout;
  }

  @Override
  public InputStream getErrorStream() {
    return stderr;
  }

  @Override
  public int waitFor() throws InterruptedException {
    try {
      return exit.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    try {
      exit.get(timeout, unit);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public int exitValue() {
    Integer status = exit.getNow(null);
    if (status == null) {
      throw new IllegalThreadStateException("process " + pid + " has not exited");
    }
    return status;
  }

  @Override
  public boolean isAlive() {
    return !exit.isDone();
  }

  /** SIGTERM through the pidfd; nothing once it is reaped (the pidfd is closed then). */
  @Override
  public void destroy() {
    signal(Pidfd.SIGTERM);
  }

  @Override
  public Process destroyForcibly() {
    signal(Pidfd.SIGKILL);
    return this;
  }

  private void signal(int signal) {
    if (pidfd != null) {
      pidfd.signal(signal);
    } else if (isAlive()) {
      handle.ifPresent(
          signal == Pidfd.SIGKILL ? ProcessHandle::destroyForcibly : ProcessHandle::destroy);
    }
  }

  @Override
  public boolean supportsNormalTermination() {
    return true;
  }

  @Override
  public CompletableFuture<Process> onExit() {
    return exit.thenApply(s -> this);
  }

  @Override
  public ProcessHandle toHandle() {
    return handle.orElseThrow(() -> new UnsupportedOperationException("process " + pid + " ended"));
  }

  @Override
  public String toString() {
    return "SpawnedProcess[pid " + pid + "]";
  }
}
