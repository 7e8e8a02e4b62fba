package org.lmctfy.testing;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a process that {@link FakeCgroupFs#start started} on the fake does, as a test scripts it
 * with {@link FakeProcesses#onRun}: when it exits and with what status, what it writes, whether it
 * ignores SIGTERM, how many children it forks. Without a script a started process runs until the
 * test ends it ({@link FakeProcesses#exit(long, int)}) or something kills it, as {@link
 * #runsUntilEnded()} says.
 *
 * <pre>{@code
 * cgroups.processes().onRun(command -> command.get(0).equals("make")
 *     ? FakeRun.exits(2).after(Duration.ofMillis(10)).writesToStderr("make: *** no rule\n")
 *     : FakeRun.exits(0));
 * ContainerProcess make = job.run(List.of("make", "all"), RunSpec.inherit());
 * assertThat(make.waitFor()).isEqualTo(2);
 * }</pre>
 *
 * <p>Timing: the exit happens {@link #after} the process was placed, on a thread of the fake's; a
 * freezer that holds the process (a paused container) holds its exit until it is thawed, as on the
 * kernel. Output is written at the start, to where the {@link ProcessBuilder}'s redirection says (a
 * pipe the caller reads, a file, the JVM's own stream for INHERIT).
 *
 * <p>Immutable and thread-safe.
 *
 * @param exitCode the status the process exits with, or null to run until ended or killed
 * @param after how long after its start the process exits (zero: at once)
 * @param stdout what the process writes to its standard output (UTF-8)
 * @param stderr what the process writes to its standard error (UTF-8)
 * @param ignoresSigterm whether {@link Process#destroy()} (SIGTERM) leaves it running; a SIGKILL,
 *     {@code cgroup.kill} or {@link Process#destroyForcibly()} always ends it
 * @param children how many children it forks at its start, in its cgroups; they run until ended or
 *     killed, also after the process exits, as daemons a job leaves behind
 * @since 0.1
 */
public record FakeRun(
    Integer exitCode,
    Duration after,
    String stdout,
    String stderr,
    boolean ignoresSigterm,
    int children) {

  /** Decides what a started process does from its command line ({@code argv}). */
  @FunctionalInterface
  public interface Script {
    /**
     * What the process started with {@code command} does.
     *
     * @param command the command line the process would have run
     * @return what it does; null for {@link #runsUntilEnded()}
     */
    FakeRun apply(List<String> command);
  }

  /**
   * Checks the values.
   *
   * @param exitCode the exit status, or null
   * @param after the delay before the exit
   * @param stdout the standard output
   * @param stderr the standard error
   * @param ignoresSigterm whether SIGTERM is ignored
   * @param children how many children are forked
   * @throws IllegalArgumentException for a negative delay or child count, or an exit code outside
   *     0..255
   */
  public FakeRun {
    Objects.requireNonNull(after, "after");
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    if (after.isNegative()) {
      throw new IllegalArgumentException("after must not be negative: " + after);
    }
    if (exitCode != null && (exitCode < 0 || exitCode > 255)) {
      throw new IllegalArgumentException(
          "exitCode must be 0..255 (a signal's death is 128 + n): " + exitCode);
    }
    if (children < 0) {
      throw new IllegalArgumentException("children must not be negative: " + children);
    }
  }

  /**
   * A process that exits with {@code code} at once, writing nothing.
   *
   * @param code the exit status, 0..255
   * @return the run
   */
  public static FakeRun exits(int code) {
    return new FakeRun(code, Duration.ZERO, "", "", false, 0);
  }

  /**
   * A process that runs until the test ends it or something kills it: what every started process
   * does without a script.
   *
   * @return the run
   */
  public static FakeRun runsUntilEnded() {
    return new FakeRun(null, Duration.ZERO, "", "", false, 0);
  }

  /**
   * This run, exiting {@code delay} after its start.
   *
   * @param delay how long it runs
   * @return the changed run
   */
  public FakeRun after(Duration delay) {
    return new FakeRun(exitCode, delay, stdout, stderr, ignoresSigterm, children);
  }

  /**
   * This run, writing {@code text} to its standard output.
   *
   * @param text what it writes
   * @return the changed run
   */
  public FakeRun writes(String text) {
    return new FakeRun(exitCode, after, text, stderr, ignoresSigterm, children);
  }

  /**
   * This run, writing {@code text} to its standard error.
   *
   * @param text what it writes
   * @return the changed run
   */
  public FakeRun writesToStderr(String text) {
    return new FakeRun(exitCode, after, stdout, text, ignoresSigterm, children);
  }

  /**
   * This run, ignoring SIGTERM.
   *
   * @return the changed run
   */
  public FakeRun ignoringSigterm() {
    return new FakeRun(exitCode, after, stdout, stderr, true, children);
  }

  /**
   * This run, forking {@code count} children at its start.
   *
   * @param count how many
   * @return the changed run
   */
  public FakeRun forking(int count) {
    return new FakeRun(exitCode, after, stdout, stderr, ignoresSigterm, count);
  }
}
