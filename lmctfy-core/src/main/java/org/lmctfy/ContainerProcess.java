package org.lmctfy;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.OptionalInt;

/**
 * A process {@link Container#run} started inside a container. The calling JVM is its parent
 * whatever the fd policy, so it can be waited for; its standard streams are pipes to the caller
 * only for {@code INHERIT} streams that the {@link org.lmctfy.spec.RunSpec} did not redirect to a
 * file (the others read as empty and discard what is written).
 *
 * <p>Thread-safe. The pid stays the process's until it has been waited for (by this handle or by
 * the JVM's reaper); do not signal it by pid after {@link #exitCode()} is present.
 *
 * <pre>{@code
 * ContainerProcess p = job.run(List.of("/bin/echo", "hello"), RunSpec.inherit());
 * String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
 * int code = p.waitFor();
 * }</pre>
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
}
