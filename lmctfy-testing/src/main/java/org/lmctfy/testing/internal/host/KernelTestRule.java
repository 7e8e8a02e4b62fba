package org.lmctfy.testing.internal.host;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one rule for this project's kernel tests: from a test's JUnit tags and this machine's {@link
 * HostFacts}, whether the test runs here, and whether it may then still skip.
 *
 * <ul>
 *   <li>A test without the tag {@value #KERNEL} is not the rule's business: it runs, and skips as
 *       its own assumptions say.
 *   <li>A {@value #KERNEL} test needs root and writable cgroup hierarchies, then what each of its
 *       layout tags names: {@code needs-v1} v1 hierarchies carrying {@link #V1}; {@code needs-v2} a
 *       cgroup2 hierarchy whose root enables {@link #V2} for its children (the tests make their
 *       scratch cgroups there); {@code needs-controllers} each of {@link #CONTROLLERS} on a v1
 *       hierarchy or enabled there (containers with limits: not v2-bare); {@code needs-systemd}
 *       systemd as PID 1 on cgroup v2 alone (the systemd driver's tests). Where one is missing it
 *       is skipped, with the reason, whether or not {@code CI=true}.
 *   <li>Under {@code CI=true} a kernel test this machine serves must not skip: an abort becomes a
 *       failure, except a {@link MachineLacks} (the test found a kernel feature or tool missing).
 * </ul>
 */
public final class KernelTestRule {
  /** The tag of a test that makes cgroups on this machine's kernel. */
  public static final String KERNEL = "kernel";

  /** The v1 controllers {@code needs-v1} asks for: those lmctfy manages. */
  static final List<String> V1 =
      List.of("cpu", "cpuacct", "cpuset", "memory", "blkio", "devices", "freezer", "pids");

  /** The controllers {@code needs-v2} asks the cgroup2 root to enable. */
  static final List<String> V2 = List.of("cpuset", "cpu", "io", "memory", "pids");

  /** The controllers {@code needs-controllers} asks for, on either version. */
  static final List<String> CONTROLLERS = List.of("cpu", "memory", "pids");

  private KernelTestRule() {}

  /**
   * What the rule says of one test here.
   *
   * @param runs whether the test runs
   * @param abortFails whether an abort of the test (other than {@link MachineLacks}) is a failure
   * @param reason why it is skipped, or null if it runs
   */
  public record Verdict(boolean runs, boolean abortFails, String reason) {
    /**
     * What the test's {@code thrown} becomes: under {@code abortFails}, an abort other than {@link
     * MachineLacks} becomes an {@link AssertionError} that says why; anything else stays as it is.
     *
     * @param thrown what the test or its set-up threw
     * @return what to throw instead
     */
    public Throwable judge(Throwable thrown) {
      if (abortFails
          && thrown instanceof org.opentest4j.TestAbortedException
          && !(thrown instanceof MachineLacks)) {
        return new AssertionError(
            "under CI=true a kernel test this machine serves must run, but it skipped: "
                + thrown.getMessage(),
            thrown);
      }
      return thrown;
    }
  }

  /**
   * The verdict for a test with {@code tags} on a machine with {@code facts}.
   *
   * @param facts the machine
   * @param tags the test's tags, its class's included
   * @param ci whether {@code CI=true}
   * @return the verdict
   * @throws IllegalArgumentException for a {@code needs-} tag the rule does not know
   */
  public static Verdict decide(HostFacts facts, Set<String> tags, boolean ci) {
    if (!tags.contains(KERNEL)) {
      return new Verdict(true, false, null);
    }
    if (facts.unusable() != null) {
      return new Verdict(false, false, "kernel test not run here: " + facts.unusable());
    }
    for (String tag : tags.stream().filter(t -> t.startsWith("needs-")).sorted().toList()) {
      String missing = missing(facts, tag);
      if (missing != null) {
        return new Verdict(false, false, tag + " test not run here: " + missing);
      }
    }
    return new Verdict(true, ci, null);
  }

  /** What this machine lacks of what {@code tag} needs, or null. */
  private static String missing(HostFacts facts, String tag) {
    Set<String> v2 = facts.v2Enabled() == null ? Set.of() : facts.v2Enabled();
    switch (tag) {
      case "needs-v1":
        {
          List<String> absent =
              V1.stream().filter(c -> !facts.v1Controllers().contains(c)).toList();
          return absent.isEmpty() ? null : "no v1 hierarchy carries " + String.join(" ", absent);
        }
      case "needs-v2":
        {
          if (facts.v2Enabled() == null) {
            return "no cgroup2 hierarchy is mounted";
          }
          List<String> absent = V2.stream().filter(c -> !v2.contains(c)).toList();
          return absent.isEmpty()
              ? null
              : "the cgroup2 root's cgroup.subtree_control enables "
                  + (v2.isEmpty()
                      ? "nothing"
                      : v2.stream().sorted().collect(Collectors.joining(" ")))
                  + ", not "
                  + String.join(" ", absent);
        }
      case "needs-controllers":
        {
          List<String> absent =
              CONTROLLERS.stream()
                  .filter(c -> !facts.v1Controllers().contains(c) && !v2.contains(c))
                  .toList();
          return absent.isEmpty()
              ? null
              : String.join(" ", absent)
                  + " neither on a v1 hierarchy nor enabled in the cgroup2 root (containers with limits need them)";
        }
      case "needs-systemd":
        return facts.systemdOnV2() ? null : "systemd is not PID 1 on a cgroup2-only /sys/fs/cgroup";
      default:
        throw new IllegalArgumentException(
            "unknown layout tag "
                + tag
                + ": the kernel test rule knows needs-v1, "
                + "needs-v2, needs-controllers and needs-systemd ("
                + KernelTestRule.class.getName()
                + ")");
    }
  }
}
