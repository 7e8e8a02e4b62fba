package org.lmctfy.support;

/**
 * Tear-down of what a set-up made: a set-up that failed or was skipped half-way leaves some fields
 * null, and the tear-down must still close the rest.
 */
public final class Teardown {
  private Teardown() {}

  /**
   * Closes each of {@code made} that is not null, in order, going on past a failure; then throws
   * the first failure with the others attached as suppressed.
   */
  public static void close(AutoCloseable... made) throws Exception {
    Exception first = null;
    for (AutoCloseable resource : made) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
