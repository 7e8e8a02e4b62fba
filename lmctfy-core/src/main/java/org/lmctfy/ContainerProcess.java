package org.lmctfy;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/**
 * A process {@link Container#run} started inside a container. The calling JVM is its parent
 * whatever the fd policy, so it can be waited for; its standard streams are pipes to the caller
 * only for {@code INHERIT} streams that the {@link org.lmctfy.spec.RunSpec} did not redirect to a
 * file (the others read as empty and discard what is written).
 *
 * <p>{@link #destroy()}, {@link #destroyForcibly()}, {@link #isAlive()}, {@link #onExit()} and
 * {@link #toHandle()} mean what they mean on {@link Process}. The library's processes are signalled
 * through a pidfd where the kernel has one (Linux 5.3 and later), which names the process itself
 * rather than its number, so a signal can never reach another process that got the pid after this
 * one ended; see {@link #destroy()} for older kernels. Signalling it by pid yourself has no such
 * guard: use these methods, or {@link Container#killAll()} for everything in the container.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * ContainerProcess p = job.run(List.of("/bin/echo", "hello"), RunSpec.inherit());
 * String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
 * int code = p.waitFor();
 * ContainerProcess server = job.run(List.of("/usr/bin/my-server"), RunSpec.detached());
 * server.onExit().thenAccept(s -> System.out.println("server exited " + s.exitCode()));
 * server.destroy();                                 // SIGTERM; destroyForcibly() is SIGKILL
 * }</pre>
 *
 * <p>The methods added in 0.2 are default methods, so that a class written against 0.1 that
 * implements this interface (a test double) still compiles and links: {@link #isAlive()} and {@link
 * #onExit()} are exact in terms of {@link #exitCode()} and {@link #waitFor()}; {@link #destroy()},
 * {@link #destroyForcibly()} and {@link #toHandle()} throw {@link UnsupportedOperationException},
 * as {@link Process}'s own do where an implementation cannot honour them. Every implementation the
 * library and {@code lmctfy-testing} return overrides them all.
 *
 * @since 0.1
 */
public interface ContainerProcess {
  /** The process id. */
  long pid();

  /**
   * Blocks until the process ends; its exit code, {@code 128 + n} if signal {@code n} ended it.
   *
   * @throws InterruptedException if this thread is interrupted while it waits
   */
  int waitFor() throws InterruptedException;

  /**
   * Waits at most {@code timeout}; the exit code, or empty if it is still running.
   *
   * @throws InterruptedException if this thread is interrupted while it waits
   */
  OptionalInt waitFor(Duration timeout) throws InterruptedException;

  /** The exit code if the process has ended, else empty; does not block. */
  OptionalInt exitCode();

  /** The process's standard input, when it is a pipe from the caller. */
  OutputStream stdin();

  /** The process's standard output, when it is a pipe to the caller. */
  InputStream stdout();

  /** The process's standard error, when it is a pipe to the caller. */
  InputStream stderr();

  /**
   * Whether the process has not ended yet.
   *
   * @since 0.2
   */
  default boolean isAlive() {
    return exitCode().isEmpty();
  }

  /**
   * Asks the process to end: SIGTERM, which it may catch or ignore. Does nothing once it has ended;
   * never signals another process that got its pid since. On kernels without pidfds (before 5.3)
   * the library signals by pid, and only while the process is known not to have been reaped: for a
   * process the library reaps itself, under the lock its reaping takes; for one the JDK reaps, as
   * {@link Process#destroy()} does.
   *
   * @throws UnsupportedOperationException if this implementation cannot signal its process
   * @since 0.2
   */
  default void destroy() {
    throw new UnsupportedOperationException(getClass().getName() + " cannot signal its process");
  }

  /**
   * Ends the process: SIGKILL, which it cannot catch (a frozen container's process ends once it is
   * resumed or killed by {@link Container#killAll()}). As {@link #destroy()} otherwise.
   *
   * @return this process
   * @throws UnsupportedOperationException if this implementation cannot signal its process
   * @since 0.2
   */
  default ContainerProcess destroyForcibly() {
    throw new UnsupportedOperationException(getClass().getName() + " cannot signal its process");
  }

  /**
   * A future completed with this process once it has ended, as {@link Process#onExit()}: its exit
   * code is then in {@link #exitCode()}. Each call may return a new future; cancelling one does not
   * affect the process.
   *
   * @since 0.2
   */
  default CompletableFuture<ContainerProcess> onExit() {
    return CompletableFuture.supplyAsync(
        () -> {
          boolean interrupted = false;
          while (true) {
            try {
              waitFor();
              break;
            } catch (InterruptedException e) {
              interrupted = true; // keep waiting: the future must not complete before the exit
            }
          }
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
          return this;
        });
  }

  /**
   * A {@link ProcessHandle} of this process, as {@link Process#toHandle()}: its pid, children,
   * {@link ProcessHandle#info()}, {@code onExit}. On the kernel it is the JDK's own, taken while
   * the pid was this process's; its {@code destroy} signals by pid after checking the process's
   * start time, as every JDK {@code ProcessHandle} does, so prefer this interface's {@link
   * #destroy()}. {@code lmctfy-testing}'s fake returns a handle of the fake process.
   *
   * @throws UnsupportedOperationException if this implementation has no such handle
   * @since 0.2
   */
  default ProcessHandle toHandle() {
    throw new UnsupportedOperationException(getClass().getName() + " has no ProcessHandle");
  }
}
