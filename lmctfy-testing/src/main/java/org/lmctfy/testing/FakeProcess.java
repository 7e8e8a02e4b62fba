package org.lmctfy.testing;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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

  @Override
  public boolean supportsNormalTermination() {
    return true;
  }

  /**
   * A handle of the fake process: its pid, liveness, exit and signals; no parent, children or info.
   */
  @Override
  public ProcessHandle toHandle() {
    return new Handle(this);
  }

  private void end(int status) {
    processes.endIfRunning(pid, status);
  }

  @Override
  public String toString() {
    return "FakeProcess[pid " + pid + "]";
  }

  /** {@link FakeProcess#toHandle()}: equal for the same fake process. */
  private record Handle(FakeProcess process) implements ProcessHandle {
    @Override
    public long pid() {
      return process.pid;
    }

    @Override
    public Optional<ProcessHandle> parent() {
      return Optional.empty();
    }

    @Override
    public Stream<ProcessHandle> children() {
      return Stream.empty();
    }

    @Override
    public Stream<ProcessHandle> descendants() {
      return Stream.empty();
    }

    @Override
    public Info info() {
      return new Info() {
        @Override
        public Optional<String> command() {
          return Optional.empty();
        }

        @Override
        public Optional<String> commandLine() {
          return Optional.empty();
        }

        @Override
        public Optional<String[]> arguments() {
          return Optional.empty();
        }

        @Override
        public Optional<java.time.Instant> startInstant() {
          return Optional.empty();
        }

        @Override
        public Optional<java.time.Duration> totalCpuDuration() {
          return Optional.empty();
        }

        @Override
        public Optional<String> user() {
          return Optional.empty();
        }
      };
    }

    @Override
    public CompletableFuture<ProcessHandle> onExit() {
      return process.onExit().thenApply(p -> this);
    }

    @Override
    public boolean supportsNormalTermination() {
      return true;
    }

    @Override
    public boolean destroy() {
      boolean alive = process.isAlive();
      process.destroy();
      return alive;
    }

    @Override
    public boolean destroyForcibly() {
      boolean alive = process.isAlive();
      process.destroyForcibly();
      return alive;
    }

    @Override
    public boolean isAlive() {
      return process.isAlive();
    }

    @Override
    public int compareTo(ProcessHandle other) {
      return Long.compare(pid(), other.pid());
    }
  }
}
