package org.lmctfy.testing;

/**
 * Thrown by every operation of a {@link FakeCgroupFs} after {@link FakeFaults#crashAt}: the process
 * using it died here. Code under test must not catch it; the test catches it, calls {@link
 * FakeFaults#recover()} (a new process over the same cgroups) and checks what the next run finds.
 *
 * @since 0.1
 */
public final class FakeCrash extends Error {
  private static final long serialVersionUID = 1L;

  FakeCrash(String message) {
    super(message);
  }
}
