package org.lmctfy.testing;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

/** A process {@link FakeCgroupFs#start} started: a fake pid, no streams, ended by the test or a kill. */
final class FakeProcess extends Process {
  private final FakeCgroupFs fs;
  private final long pid;

  FakeProcess(FakeCgroupFs fs, long pid) {
    this.fs = fs;
    this.pid = pid;
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
    return InputStream.nullInputStream();
  }

  @Override
  public InputStream getErrorStream() {
    return InputStream.nullInputStream();
  }

  @Override
  public int waitFor() throws InterruptedException {
    while (true) {
      Integer status = fs.awaitExit(pid, TimeUnit.SECONDS.toNanos(1));
      if (status != null) {
        return status;
      }
    }
  }

  @Override
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    return fs.awaitExit(pid, unit.toNanos(timeout)) != null;
  }

  @Override
  public int exitValue() {
    Integer status = fs.exitStatusOf(pid);
    if (status == null) {
      throw new IllegalThreadStateException("fake process " + pid + " has not exited");
    }
    return status;
  }

  @Override
  public boolean isAlive() {
    return fs.exitStatusOf(pid) == null;
  }

  /** SIGTERM: ends the fake process with 143. */
  @Override
  public void destroy() {
    end(143);
  }

  /** SIGKILL: ends the fake process with 137. */
  @Override
  public Process destroyForcibly() {
    end(137);
    return this;
  }

  private void end(int status) {
    fs.endIfRunning(pid, status);
  }

  @Override
  public String toString() {
    return "FakeProcess[pid " + pid + "]";
  }
}
