package org.lmctfy.trust;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.support.ChildJvms;

/**
 * A second JVM that takes one lock: {@code <directory> <key> <millis>} prints {@code locked} once
 * it holds the lock of {@code key} in {@code directory}, holds it for {@code millis}, and exits.
 */
public final class LockProbe {
  private LockProbe() {}

  public static void main(String[] args) throws InterruptedException {
    try (ContainerLocks.Held held =
        new ContainerLocks(Path.of(args[0]), Duration.ofSeconds(10)).lock(args[1], args[1])) {
      System.out.println("locked");
      System.out.flush();
      Thread.sleep(Long.parseLong(args[2]));
    } catch (RuntimeException e) {
      System.out.println("FAILED " + e);
      System.exit(3);
    }
  }

  /** Waits until the probe says it holds its lock; fails if it ends or fails first. */
  static void awaitLocked(Process probe, Path output) throws IOException, InterruptedException {
    long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (!java.nio.file.Files.readString(output).contains("locked")) {
      if (!probe.isAlive() || System.nanoTime() > end) {
        throw new AssertionError(
            "the lock probe did not lock: " + java.nio.file.Files.readString(output));
      }
      Thread.sleep(10);
    }
  }

  /**
   * Starts the probe with the test's class path under {@code umask}, its output in {@code output}.
   */
  static Process start(Path output, String umask, String... args) throws IOException {
    List<String> command =
        new ArrayList<>(List.of("/bin/sh", "-c", "umask " + umask + " && exec \"$@\"", "sh"));
    command.addAll(ChildJvms.java("-Xss512k", LockProbe.class, args));
    return ChildJvms.start(command, output);
  }
}
