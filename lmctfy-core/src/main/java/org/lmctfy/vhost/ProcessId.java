package org.lmctfy.vhost;

/**
 * A process named so that a reused pid cannot stand for it: its pid and its start time, in clock
 * ticks after boot (field 22 of {@code /proc/<pid>/stat}), the "pid + start-time cookie" lmctfy
 * kept for a virtual host's init. A process with this pid and another start time is another
 * process.
 *
 * <pre>{@code
 * ProcessId init = new ProcessId(4711, 1234567);
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param pid the process id, in the caller's pid namespace, {@code >= 1}
 * @param startTime when it started, in clock ticks after boot, {@code >= 0}
 * @since 0.1 (in {@code org.lmctfy.cgroupfs} until 0.2)
 */
public record ProcessId(long pid, long startTime) {
  /**
   * Checks the numbers.
   *
   * @param pid the process id
   * @param startTime its start time
   * @throws IllegalArgumentException for a pid below 1 or a negative start time
   */
  public ProcessId {
    if (pid < 1 || startTime < 0) {
      throw new IllegalArgumentException(
          "not a process id: pid " + pid + " start time " + startTime);
    }
  }

  /**
   * {@code "<pid> <startTime>"}, as {@link #parse} reads it.
   *
   * @return the two numbers separated by a space
   */
  @Override
  public String toString() {
    return pid + " " + startTime;
  }

  /**
   * Reads {@link #toString()}'s form.
   *
   * @param text {@code "<pid> <startTime>"}
   * @return the process id
   * @throws IllegalArgumentException if the text is not two such numbers
   */
  public static ProcessId parse(String text) {
    String[] parts = text.strip().split(" ");
    try {
      if (parts.length == 2) {
        return new ProcessId(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a process id: " + text, e);
    }
    throw new IllegalArgumentException("not a process id: " + text);
  }
}
