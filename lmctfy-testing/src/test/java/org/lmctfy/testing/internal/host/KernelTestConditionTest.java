package org.lmctfy.testing.internal.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The condition inside JUnit: fixture classes (nested, so that no build runs them on their own) run
 * through JUnit's launcher on a given machine, with or without CI, and each test's outcome is what
 * the rule says.
 */
class KernelTestConditionTest {

  @Test
  void
      onThisProjectsHybridMachineOutsideCiAKernelTestRunsAndMaySkipAndNeedsV2IsSkippedWithTheReason() {
    Map<String, String> outcomes =
        run("hybrid", false, KernelCase.class, NeedsV2Case.class, FakeCase.class);

    assertThat(outcomes)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "KernelCase.passes", "SUCCESSFUL",
                "KernelCase.aborts", "ABORTED: something broke",
                "KernelCase.lacksAFeature",
                    "ABORTED: Assumption failed: this kernel has no BFQ weight file",
                "KernelCase.needsV1", "SUCCESSFUL",
                "NeedsV2Case",
                    "SKIPPED: needs-v2 test not run here: the cgroup2 root's cgroup.subtree_control enables nothing, "
                        + "not cpuset cpu io memory pids",
                "FakeCase.aborts", "ABORTED: the fake's layout has no v1 memory hierarchy"));
  }

  @Test
  void underCiAServedKernelTestThatSkipsFailsButOneThatLacksAFeatureAndAllOthersStillSkip() {
    Map<String, String> outcomes =
        run("hybrid", true, KernelCase.class, NeedsV2Case.class, FakeCase.class);

    assertThat(outcomes)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "KernelCase.passes", "SUCCESSFUL",
                "KernelCase.aborts",
                    "FAILED: under CI=true a kernel test this machine serves must run, but it skipped: "
                        + "something broke",
                "KernelCase.lacksAFeature",
                    "ABORTED: Assumption failed: this kernel has no BFQ weight file",
                "KernelCase.needsV1", "SUCCESSFUL",
                "NeedsV2Case",
                    "SKIPPED: needs-v2 test not run here: the cgroup2 root's cgroup.subtree_control enables nothing, "
                        + "not cpuset cpu io memory pids",
                "FakeCase.aborts", "ABORTED: the fake's layout has no v1 memory hierarchy"));
  }

  @Test
  void underCiAServedKernelTestWhoseSetUpSkipsFails() {
    Map<String, String> outcomes = run("v2", true, SetUpAbortsCase.class);

    assertThat(outcomes)
        .containsExactly(
            Map.entry(
                "SetUpAbortsCase.test",
                "FAILED: under CI=true a kernel test this machine serves must run, but it skipped: "
                    + "kernel test skipped: cannot read the cgroups"));
  }

  @Test
  void withoutRootUnderCiEveryKernelTestIsSkippedBeforeItsSetUpAndOthersRun() {
    Map<String, String> outcomes =
        run("not-root", true, KernelCase.class, NeedsV2Case.class, FakeCase.class);

    String notRoot =
        "SKIPPED: kernel test not run here: not running as root (uid 65534; creating cgroups needs root, "
            + "or a delegated subtree)";
    assertThat(outcomes)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "KernelCase", notRoot,
                "NeedsV2Case", notRoot,
                "FakeCase.aborts", "ABORTED: the fake's layout has no v1 memory hierarchy"));
  }

  @Test
  void onV2TheNeedsV1CaseOfAKernelClassIsSkippedAndTheRestRuns() {
    Map<String, String> outcomes = run("v2", false, KernelCase.class, NeedsV2Case.class);

    assertThat(outcomes)
        .containsEntry("KernelCase.passes", "SUCCESSFUL")
        .containsEntry(
            "KernelCase.needsV1",
            "SKIPPED: needs-v1 test not run here: no v1 hierarchy carries "
                + "cpu cpuacct cpuset memory blkio devices freezer pids")
        .containsEntry("NeedsV2Case.passes", "SUCCESSFUL");
  }

  /**
   * Runs {@code classes} with the condition on the machine named {@code machine}: each test's
   * outcome by its name.
   */
  private static Map<String, String> run(String machine, boolean ci, Class<?>... classes) {
    Map<String, String> outcomes = new TreeMap<>();
    LauncherDiscoveryRequestBuilder request =
        LauncherDiscoveryRequestBuilder.request()
            .filters(EngineFilter.includeEngines("junit-jupiter"))
            // only the fixtures' own condition, not the one this module registers for every test
            .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "false")
            .configurationParameter(OnMachine.MACHINE, machine)
            .configurationParameter(OnMachine.CI, Boolean.toString(ci));
    for (Class<?> c : classes) {
      request.selectors(selectClass(c));
    }
    LauncherFactory.create()
        .execute(
            request.build(),
            new TestExecutionListener() {
              @Override
              public void executionSkipped(TestIdentifier id, String reason) {
                outcomes.put(name(id), "SKIPPED: " + reason);
              }

              @Override
              public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest() || result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                  outcomes.put(
                      name(id),
                      result.getStatus()
                          + result.getThrowable().map(t -> ": " + t.getMessage()).orElse(""));
                }
              }
            });
    outcomes.remove("JUnit Jupiter");
    return outcomes;
  }

  private static String name(TestIdentifier id) {
    String unique = id.getUniqueId();
    String cls = unique.replaceAll(".*\\[class:[^\\]]*\\$([^\\]]+)\\].*", "$1");
    return id.isTest()
        ? cls + "." + id.getDisplayName().replace("()", "")
        : unique.contains("[class:") ? cls : id.getDisplayName();
  }

  /**
   * The condition on a machine of {@link Machines}, named by the launcher's configuration; without
   * one (a fixture selected on its own, {@code -Dtest=Kernel*}) the fixture is disabled.
   */
  static final class OnMachine
      implements ExecutionCondition,
          TestExecutionExceptionHandler,
          LifecycleMethodExecutionExceptionHandler {
    static final String MACHINE = "lmctfy.test.machine";
    static final String CI = "lmctfy.test.ci";

    private static KernelTestCondition condition(ExtensionContext context) {
      HostFacts facts = Machines.named(context.getConfigurationParameter(MACHINE).orElseThrow());
      boolean ci = Boolean.parseBoolean(context.getConfigurationParameter(CI).orElseThrow());
      return new KernelTestCondition(() -> facts, ci);
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      if (context.getConfigurationParameter(MACHINE).isEmpty()) {
        return ConditionEvaluationResult.disabled(
            "a fixture of KernelTestConditionTest, run only through it");
      }
      return condition(context).evaluateExecutionCondition(context);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown)
        throws Throwable {
      condition(context).handleTestExecutionException(context, thrown);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable thrown)
        throws Throwable {
      condition(context).handleBeforeEachMethodExecutionException(context, thrown);
    }
  }

  @Tag("kernel")
  @ExtendWith(OnMachine.class)
  static class KernelCase {
    @Test
    void passes() {}

    @Test
    void aborts() {
      Assumptions.abort("something broke");
    }

    @Test
    void lacksAFeature() {
      MachineLacks.assumeHas(false, "this kernel has no BFQ weight file");
    }

    @Test
    @Tag("needs-v1")
    void needsV1() {}
  }

  @Tag("kernel")
  @Tag("needs-v2")
  @ExtendWith(OnMachine.class)
  static class NeedsV2Case {
    @Test
    void passes() {}
  }

  @Tag("kernel")
  @ExtendWith(OnMachine.class)
  static class SetUpAbortsCase {
    @BeforeEach
    void setUp() {
      Assumptions.abort("kernel test skipped: cannot read the cgroups");
    }

    @Test
    void test() {}
  }

  /** A contract case on the fake, tagged with a layout but not kernel: not the rule's business. */
  @ExtendWith(OnMachine.class)
  static class FakeCase {
    @Test
    @Tag("needs-v1")
    void aborts() {
      Assumptions.abort("the fake's layout has no v1 memory hierarchy");
    }
  }
}
