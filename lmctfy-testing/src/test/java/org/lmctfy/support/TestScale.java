package org.lmctfy.support;

/**
 * Loop counts of kernel tests that start JVMs, divided by {@code LMCTFY_TEST_SCALE} (set by
 * {@code .ci/kernel-vm}, where a JVM start takes seconds under emulation; 1 elsewhere).
 */
public final class TestScale {
  private TestScale() {}

  /** {@code count} divided by the scale, at least 1. */
  public static int scaled(int count) {
    String scale = System.getenv("LMCTFY_TEST_SCALE");
    int divisor = scale == null || scale.isBlank() ? 1 : Integer.parseInt(scale.strip());
    return Math.max(1, count / Math.max(1, divisor));
  }
}
