package org.lmctfy.internal.kernel.vhost;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.lmctfy.internal.libc.Pidfd;

/**
 * A process started inside a virtual host: nsenter, the JVM's child, which forked the program into
 * the virtual host's pid namespace and waits for it, passing its exit status or signal on. Its pid
 * is the program's (nsenter's while the program does not run yet, in a frozen cgroup); waiting and
 * the streams are nsenter's; {@link #destroy()} signals the program, whose end ends nsenter. The
 * program is signalled through a pidfd opened while it was still nsenter's child (so its pid was
 * its own), or, without pidfds, through its {@link ProcessHandle}, which checks its start time.
 */
final class JoinedProcess extends Process {
  private final Process nsenter;
  private final long pid;
  private final Optional<ProcessHandle> program;
  private final @Nullable Pidfd programFd;

  /**
   * @param nsenter the JVM's child
   * @param program the program's pid, or -1 if it does not run (yet)
   */
  JoinedProcess(Process nsenter, long program) throws IOException {
    this.nsenter = nsenter;
    this.pid = program > 0 ? program : nsenter.pid();
    this.program =
        program > 0 ? ProcessHandle.of(program) : Optional.empty(); // holds its start time
    this.programFd = program > 0 ? childFd(nsenter, program) : null;
    if (programFd != null) {
      nsenter.onExit().whenComplete((p, e) -> programFd.close());
    }
  }

  /**
   * A pidfd of nsenter's child {@code program}, or null: opened, then checked to be nsenter's child
   * still (nsenter had not reaped it, so the pid was the program's when the pidfd was opened).
   */
  private static @Nullable Pidfd childFd(Process nsenter, long program) throws IOException {
    Pidfd fd = Pidfd.open(program);
    if (fd != null && !Procfs.children(nsenter.pid()).contains(program)) {
      fd.close();
      return null;
    }
    return fd;
  }

  @Override
  public long pid() {
    return pid;
  }

  @Override
  public OutputStream getOutputStream() {
    return nsenter.getOutputStream();
  }

  @Override
  public InputStream getInputStream() {
    return nsenter.getInputStream();
  }

  @Override
  public InputStream getErrorStream() {
    return nsenter.getErrorStream();
  }

  @Override
  public int waitFor() throws InterruptedException {
    return nsenter.waitFor();
  }

  @Override
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    return nsenter.waitFor(timeout, unit);
  }

  @Override
  public int exitValue() {
    return nsenter.exitValue();
  }

  @Override
  public boolean isAlive() {
    return nsenter.isAlive();
  }

  /**
   * SIGTERM to the program (nsenter, which does not pass signals on, if the program does not run).
   */
  @Override
  public void destroy() {
    if (programFd != null) {
      programFd.signal(Pidfd.SIGTERM);
    } else if (program.isPresent()) {
      program.get().destroy();
    } else {
      nsenter.destroy();
    }
  }

  /** SIGKILL to the program and to nsenter. */
  @Override
  public Process destroyForcibly() {
    if (programFd != null) {
      programFd.signal(Pidfd.SIGKILL);
    } else {
      program.ifPresent(ProcessHandle::destroyForcibly);
    }
    nsenter.destroyForcibly();
    return this;
  }

  @Override
  public CompletableFuture<Process> onExit() {
    return nsenter.onExit().thenApply(p -> this);
  }

  @Override
  public ProcessHandle toHandle() {
    return program.orElseGet(nsenter::toHandle);
  }

  @Override
  public String toString() {
    return "JoinedProcess[pid " + pid + ", nsenter " + nsenter.pid() + "]";
  }
}
