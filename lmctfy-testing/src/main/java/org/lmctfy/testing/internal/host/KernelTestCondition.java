package org.lmctfy.testing.internal.host;

import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * {@link KernelTestRule} as a JUnit 5 extension: disables each kernel test (and kernel test class)
 * this machine does not serve, with the rule's reason, and under {@code CI=true} turns a skip of
 * one it serves into a failure. This project's test modules register it for every test through
 * {@code junit-platform.properties} (extension autodetection) and {@code META-INF/services}.
 */
public final class KernelTestCondition
    implements ExecutionCondition,
        TestExecutionExceptionHandler,
        LifecycleMethodExecutionExceptionHandler {
  private final Supplier<HostFacts> read;
  private final boolean ci;
  private HostFacts facts;

  /** On this machine, with {@code CI} from the environment: what autodetection makes. */
  public KernelTestCondition() {
    this(HostFacts::read, "true".equals(System.getenv("CI")));
  }

  /**
   * On the machine {@code read} describes (read once, at the first test).
   *
   * @param read the facts
   * @param ci whether {@code CI=true}
   */
  public KernelTestCondition(Supplier<HostFacts> read, boolean ci) {
    this.read = read;
    this.ci = ci;
  }

  private synchronized HostFacts facts() {
    if (facts == null) {
      facts = read.get();
    }
    return facts;
  }

  private KernelTestRule.Verdict verdict(ExtensionContext context) {
    return KernelTestRule.decide(facts(), context.getTags(), ci);
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    KernelTestRule.Verdict v = verdict(context);
    return v.runs()
        ? ConditionEvaluationResult.enabled("this machine serves it")
        : ConditionEvaluationResult.disabled(v.reason());
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable thrown)
      throws Throwable {
    throw verdict(context).judge(thrown);
  }

  @Override
  public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable thrown)
      throws Throwable {
    throw verdict(context).judge(thrown);
  }

  @Override
  public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable thrown)
      throws Throwable {
    throw verdict(context).judge(thrown);
  }
}
