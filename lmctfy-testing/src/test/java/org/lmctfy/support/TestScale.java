package org.lmctfy.support;

/**
 * Loop counts of kernel tests that start JVMs, divided by {@code LMCTFY_TEST_SCALE} (set by {@code
 * .ci/kernel-vm}, where a JVM start takes seconds under emulation; 1 elsewhere).
 */
public final class TestScale {
  private TestScale() {}

  /** {@code count} divided by the scale, at least 1. */
  public static int scaled(int count) {
    return Math.max(1, count / factor());
  }

  /** {@code millis} times the scale: a time budget for work that runs that much slower. */
  public static long stretched(long millis) {
    return millis * factor();
  }

  private static int factor() {
    String scale = System.getenv("LMCTFY_TEST_SCALE");
    return Math.max(1, scale == null || scale.isBlank() ? 1 : Integer.parseInt(scale.strip()));
  }
}
