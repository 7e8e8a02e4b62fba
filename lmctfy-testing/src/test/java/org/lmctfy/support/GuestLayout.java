package org.lmctfy.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.lmctfy.testing.internal.host.MachineLacks;

/**
 * What the {@code v2} guest of .ci/kernel-vm sets up beyond the {@code needs-v2} tag's five
 * controllers (hugetlb, rdma and misc enabled at the root, iocost on its disk, huge pages): a
 * kernel test that needs it skips where the machine lacks it ({@link MachineLacks}) and fails in
 * that guest, whose layout promises it.
 */
public final class GuestLayout {
  private GuestLayout() {}

  /** Whether this runs in the {@code v2} guest of .ci/kernel-vm. */
  public static boolean inV2Guest() {
    return System.getenv("LMCTFY_KERNEL_VERSION") != null
        && "v2".equals(System.getenv("LMCTFY_KERNEL_LAYOUT"));
  }

  /** Skips unless {@code has}; fails instead in the v2 guest, which has it. */
  public static void requireHas(boolean has, String what) {
    if (!has && inV2Guest()) {
      throw new AssertionError(
          "the v2 guest of .ci/kernel-vm has " + what + ", but this one does not");
    }
    MachineLacks.assumeHas(has, "this machine lacks " + what);
  }

  /**
   * Skips unless the cgroup2 root at /sys/fs/cgroup enables {@code controller}; fails instead in
   * the v2 guest.
   */
  public static void requireEnabledAtTheRoot(String controller) throws IOException {
    Path subtree = Path.of("/sys/fs/cgroup/cgroup.subtree_control");
    boolean on =
        Files.isReadable(subtree)
            && Arrays.asList(Files.readString(subtree).strip().split("\\s+")).contains(controller);
    requireHas(
        on,
        "the " + controller + " controller enabled in the cgroup2 root's cgroup.subtree_control");
  }
}
