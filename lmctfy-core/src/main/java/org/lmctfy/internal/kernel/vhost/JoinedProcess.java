package org.lmctfy.internal.kernel.vhost;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A process started inside a virtual host: nsenter, the JVM's child, which forked the program into
 * the virtual host's pid namespace and waits for it, passing its exit status or signal on. Its pid
 * is the program's (nsenter's while the program does not run yet, in a frozen cgroup); waiting and
 * the streams are nsenter's; {@link #destroy()} signals the program, whose end ends nsenter.
 */
final class JoinedProcess extends Process {
  private final Process nsenter;
  private final long pid;
  private final Optional<ProcessHandle> program;

  /**
   * @param nsenter the JVM's child
   * @param program the program's pid, or -1 if it does not run (yet)
   */
  JoinedProcess(Process nsenter, long program) {
    this.nsenter = nsenter;
    this.pid = program > 0 ? program : nsenter.pid();
    this.program =
        program > 0 ? ProcessHandle.of(program) : Optional.empty(); // holds its start time
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
    if (program.isPresent()) {
      program.get().destroy();
    } else {
      nsenter.destroy();
    }
  }

  /** SIGKILL to the program and to nsenter. */
  @Override
  public Process destroyForcibly() {
    program.ifPresent(ProcessHandle::destroyForcibly);
    nsenter.destroyForcibly();
    return this;
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
