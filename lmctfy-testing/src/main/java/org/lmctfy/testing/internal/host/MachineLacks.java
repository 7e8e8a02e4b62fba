package org.lmctfy.testing.internal.host;

import org.opentest4j.TestAbortedException;

/**
 * A skip that says this machine lacks what one case needs beyond its layout tags: a kernel feature
 * (BFQ, PSI), a second cpu, a v1 hierarchy of one controller, a tool. The only skip {@link
 * KernelTestRule} allows a kernel test this machine serves under {@code CI=true}.
 */
public final class MachineLacks extends TestAbortedException {
  private static final long serialVersionUID = 1L;

  private MachineLacks(String reason) {
    super("Assumption failed: " + reason);
  }

  /**
   * Skips the calling test unless {@code has}.
   *
   * @param has whether the machine has what the test needs
   * @param reason what it lacks otherwise ({@code "this kernel has no BFQ weight file"})
   * @throws MachineLacks unless {@code has}
   */
  public static void assumeHas(boolean has, String reason) {
    if (!has) {
      throw new MachineLacks(reason);
    }
  }
}
