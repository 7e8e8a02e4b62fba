package org.lmctfy.internal.process;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.lmctfy.ContainerProcess;

/**
 * A {@link ContainerProcess} over the {@link Process} a {@code CgroupFs} started (or a virtual host
 * joined): each method is the process's own, whose backend guards its signals (see {@code
 * CgroupFs.start}).
 */
public final class LaunchedProcess implements ContainerProcess {
  private final Process process;

  public LaunchedProcess(Process process) {
    this.process = process;
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public int waitFor() throws InterruptedException {
    return process.waitFor();
  }

  @Override
  public OptionalInt waitFor(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)
        ? OptionalInt.of(process.exitValue())
        : OptionalInt.empty();
  }

  @Override
  public OptionalInt exitCode() {
    return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void destroy() {
    process.destroy();
  }

  @Override
  public ContainerProcess destroyForcibly() {
    process.destroyForcibly();
    return this;
  }

  @Override
  public CompletableFuture<ContainerProcess> onExit() {
    return process.onExit().thenApply(p -> this);
  }

  @Override
  public ProcessHandle toHandle() {
    return process.toHandle();
  }

  @Override
  public OutputStream stdin() {
    return process.getOutputStream();
  }

  @Override
  public InputStream stdout() {
    return process.getInputStream();
  }

  @Override
  public InputStream stderr() {
    return process.getErrorStream();
  }

  @Override
  public String toString() {
    return "ContainerProcess[pid " + pid() + "]";
  }
}
