package org.lmctfy.testing;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

/**
 * A process {@link FakeCgroupFs#start} started: a fake pid, the output its {@link FakeRun} wrote,
 * ended by its script, the test or a kill.
 */
final class FakeProcess extends Process {
  private final FakeProcesses processes;
  private final long pid;
  private final byte[] stdout;
  private final byte[] stderr;

  FakeProcess(FakeProcesses processes, long pid, byte[] stdout, byte[] stderr) {
    this.processes = processes;
    this.pid = pid;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  @Override
  public long pid() {
    return pid;
  }

  @Override
  public OutputStream getOutputStream() {
    return OutputStream.nullOutputStream();
  }

  @Override
  public InputStream getInputStream() {
    return new java.io.ByteArrayInputStream(stdout);
  }

  @Override
  public InputStream getErrorStream() {
    return new java.io.ByteArrayInputStream(stderr);
  }

  @Override
  public int waitFor() throws InterruptedException {
    while (true) {
      Integer status = processes.awaitExit(pid, TimeUnit.SECONDS.toNanos(1));
      if (status != null) {
        return status;
      }
    }
  }

  @Override
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    return processes.awaitExit(pid, unit.toNanos(timeout)) != null;
  }

  @Override
  public int exitValue() {
    Integer status = processes.exitStatusOf(pid);
    if (status == null) {
      throw new IllegalThreadStateException("fake process " + pid + " has not exited");
    }
    return status;
  }

  @Override
  public boolean isAlive() {
    return processes.exitStatusOf(pid) == null;
  }

  /** SIGTERM: ends the fake process with 143, unless its script ignores SIGTERM. */
  @Override
  public void destroy() {
    if (!processes.ignoresSigterm(pid)) {
      end(143);
    }
  }

  /** SIGKILL: ends the fake process with 137. */
  @Override
  public Process destroyForcibly() {
    end(137);
    return this;
  }

  private void end(int status) {
    processes.endIfRunning(pid, status);
  }

  @Override
  public String toString() {
    return "FakeProcess[pid " + pid + "]";
  }
}
