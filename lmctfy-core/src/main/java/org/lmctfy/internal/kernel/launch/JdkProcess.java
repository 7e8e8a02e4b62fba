package org.lmctfy.internal.kernel.launch;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.lmctfy.internal.libc.Pidfd;

/**
 * A process the JDK started and reaps ({@link ProcessBuilder#start()}), signalled through a pidfd
 * opened while its pid was certainly its own: the JDK's {@link Process#destroy()} signals by pid,
 * and could reach a new process that got the pid between the JDK's reaping and its noting the exit.
 * Without a pidfd (a kernel before 5.3) the JDK's own destroy is used. The pidfd is closed once the
 * JDK has seen the exit.
 */
final class JdkProcess extends Process {
  private final Process process;
  private final @Nullable Pidfd pidfd;

  /**
   * @param process a process that cannot have ended yet (it waits at the launcher's gate)
   */
  JdkProcess(Process process) {
    this.process = process;
    this.pidfd = Pidfd.open(process.pid());
    if (pidfd != null) {
      process.onExit().whenComplete((p, e) -> pidfd.close());
    }
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public OutputStream getOutputStream() {
    return process.getOutputStream();
  }

  @Override
  public InputStream getInputStream() {
    return process.getInputStream();
  }

  @Override
  public InputStream getErrorStream() {
    return process.getErrorStream();
  }

  @Override
  public int waitFor() throws InterruptedException {
    return process.waitFor();
  }

  @Override
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    return process.waitFor(timeout, unit);
  }

  @Override
  public int exitValue() {
    return process.exitValue();
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void destroy() {
    if (pidfd == null) {
      process.destroy();
    } else {
      pidfd.signal(Pidfd.SIGTERM);
    }
  }

  @Override
  public Process destroyForcibly() {
    if (pidfd == null) {
      process.destroyForcibly();
    } else {
      pidfd.signal(Pidfd.SIGKILL);
    }
    return this;
  }

  @Override
  public boolean supportsNormalTermination() {
    return true;
  }

  @Override
  public CompletableFuture<Process> onExit() {
    return process.onExit().thenApply(p -> this);
  }

  @Override
  public ProcessHandle toHandle() {
    return process.toHandle();
  }

  @Override
  public String toString() {
    return "JdkProcess[pid " + pid() + "]";
  }
}
