package org.lmctfy.testing.internal.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.opentest4j.TestAbortedException;

/**
 * The decision table: machine x privilege x tags x CI -> runs (may it skip?) or skipped, and why.
 */
class KernelTestRuleTest {

  @ParameterizedTest(name = "{0}, tags [{1}], CI={2}: {3}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      textBlock =
          """
      # machine    | tags                            | CI    | verdict
      hybrid       | ""                              | false | runs
      hybrid       | ""                              | true  | runs
      not-root     | ""                              | true  | runs
      hybrid       | needs-v1                        | true  | runs
      v2           | needs-v2                        | true  | runs
      hybrid       | kernel                          | false | runs
      hybrid       | kernel                          | true  | runs, must not skip
      hybrid       | kernel needs-v1                 | true  | runs, must not skip
      hybrid       | kernel needs-controllers        | true  | runs, must not skip
      hybrid       | kernel needs-v2                 | false | skipped: needs-v2 test not run here: the cgroup2 root's cgroup.subtree_control enables nothing, not cpuset cpu io memory pids
      hybrid       | kernel needs-v2                 | true  | skipped: needs-v2 test not run here: the cgroup2 root's cgroup.subtree_control enables nothing, not cpuset cpu io memory pids
      v1           | kernel needs-v2                 | true  | skipped: needs-v2 test not run here: no cgroup2 hierarchy is mounted
      v1           | kernel needs-v1 needs-controllers | true | runs, must not skip
      v2           | kernel                          | true  | runs, must not skip
      v2           | kernel needs-v2                 | true  | runs, must not skip
      v2           | kernel needs-controllers        | false | runs
      v2           | kernel needs-v1                 | true  | skipped: needs-v1 test not run here: no v1 hierarchy carries cpu cpuacct cpuset memory blkio devices freezer pids
      v2-bare      | kernel                          | true  | runs, must not skip
      v2-bare      | kernel needs-controllers        | true  | skipped: needs-controllers test not run here: cpu memory pids neither on a v1 hierarchy nor enabled in the cgroup2 root (containers with limits need them)
      v2-bare      | kernel needs-v2                 | true  | skipped: needs-v2 test not run here: the cgroup2 root's cgroup.subtree_control enables nothing, not cpuset cpu io memory pids
      v2-no-cpuset | kernel needs-v2                 | true  | skipped: needs-v2 test not run here: the cgroup2 root's cgroup.subtree_control enables cpu io memory pids, not cpuset
      v2-no-cpuset | kernel needs-controllers        | true  | runs, must not skip
      hybrid-6.12  | kernel needs-v1                 | true  | skipped: needs-v1 test not run here: no v1 hierarchy carries cpuset memory
      hybrid-6.12  | kernel needs-controllers        | true  | skipped: needs-controllers test not run here: memory neither on a v1 hierarchy nor enabled in the cgroup2 root (containers with limits need them)
      systemd      | kernel needs-systemd            | true  | runs, must not skip
      hybrid       | kernel needs-systemd            | true  | skipped: needs-systemd test not run here: systemd is not PID 1 on a cgroup2-only /sys/fs/cgroup
      v2           | kernel needs-systemd            | true  | skipped: needs-systemd test not run here: systemd is not PID 1 on a cgroup2-only /sys/fs/cgroup
      not-root     | kernel                          | false | skipped: kernel test not run here: not running as root (uid 65534; creating cgroups needs root, or a delegated subtree)
      not-root     | kernel                          | true  | skipped: kernel test not run here: not running as root (uid 65534; creating cgroups needs root, or a delegated subtree)
      not-root     | kernel needs-v1                 | true  | skipped: kernel test not run here: not running as root (uid 65534; creating cgroups needs root, or a delegated subtree)
      read-only    | kernel needs-v2                 | true  | skipped: kernel test not run here: the cgroup hierarchy at /sys/fs/cgroup is read-only (a container without its own cgroups?)
      """)
  void decidesFromTheMachineTheTagsAndCi(String machine, String tags, boolean ci, String expected) {
    KernelTestRule.Verdict v = KernelTestRule.decide(Machines.named(machine), tagSet(tags), ci);

    assertThat(describe(v)).isEqualTo(expected);
  }

  @Test
  void anUnknownLayoutTagOnAKernelTestIsAnErrorNamingTheTagsTheRuleKnows() {
    assertThatThrownBy(
            () ->
                KernelTestRule.decide(
                    Machines.named("hybrid"), Set.of("kernel", "needs-v3"), false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs-v3")
        .hasMessageContaining("needs-v1, needs-v2, needs-controllers and needs-systemd");
  }

  @Test
  void whereASkipIsNotAllowedAnAbortBecomesAFailureThatSaysWhy() {
    KernelTestRule.Verdict strict =
        KernelTestRule.decide(Machines.named("hybrid"), Set.of("kernel"), true);
    TestAbortedException abort =
        catchAbort(() -> Assumptions.abort("kernel test skipped: something broke"));

    Throwable judged = strict.judge(abort);

    assertThat(judged)
        .isInstanceOf(AssertionError.class)
        .hasCause(abort)
        .hasMessage(
            "under CI=true a kernel test this machine serves must run, but it skipped: kernel test skipped: something broke");
  }

  @Test
  void whereASkipIsNotAllowedTheMachineMayStillLackAFeatureOfOneCase() {
    KernelTestRule.Verdict strict =
        KernelTestRule.decide(Machines.named("hybrid"), Set.of("kernel"), true);
    TestAbortedException lacks =
        catchAbort(() -> MachineLacks.assumeHas(false, "this kernel has no BFQ weight file"));

    assertThat(strict.judge(lacks))
        .isSameAs(lacks)
        .hasMessage("Assumption failed: this kernel has no BFQ weight file");
  }

  @Test
  void outsideCiAndOutsideKernelTestsAnAbortStaysASkip() {
    TestAbortedException abort = catchAbort(() -> Assumptions.abort("no"));

    assertThat(
            KernelTestRule.decide(Machines.named("hybrid"), Set.of("kernel"), false).judge(abort))
        .isSameAs(abort);
    assertThat(KernelTestRule.decide(Machines.named("hybrid"), Set.of(), true).judge(abort))
        .isSameAs(abort);
  }

  @Test
  void aFailureStaysAFailure() {
    AssertionError failure = new AssertionError("expected 1");

    assertThat(KernelTestRule.decide(Machines.named("v2"), Set.of("kernel"), true).judge(failure))
        .isSameAs(failure);
  }

  @Test
  void machineLacksSkipsOnlyWhenTheMachineLacks() {
    MachineLacks.assumeHas(true, "unused");

    assertThat(catchAbort(() -> MachineLacks.assumeHas(false, "needs two cpus")))
        .isInstanceOf(MachineLacks.class);
  }

  private static TestAbortedException catchAbort(Runnable r) {
    try {
      r.run();
    } catch (TestAbortedException e) {
      return e;
    }
    throw new AssertionError("did not abort");
  }

  private static Set<String> tagSet(String tags) {
    return Arrays.stream(tags.split(" ")).filter(t -> !t.isEmpty()).collect(Collectors.toSet());
  }

  private static String describe(KernelTestRule.Verdict v) {
    if (!v.runs()) {
      return "skipped: " + v.reason();
    }
    return v.abortFails() ? "runs, must not skip" : "runs";
  }
}
