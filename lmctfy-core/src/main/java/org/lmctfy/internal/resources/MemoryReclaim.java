package org.lmctfy.internal.resources;

import java.io.IOException;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;

/**
 * Proactive reclaim, {@code Container.reclaim(bytes)}: v2 {@code memory.reclaim} (Linux 5.19+), a
 * write-only file whose write returns once the kernel reclaimed that much from the container and
 * its descendants, or fails EAGAIN when it could not. An operation, not a spec field: nothing is
 * recorded and {@code spec()} is unchanged. v1 has no such file (its {@code memory.force_empty}
 * works only on an empty cgroup): FAILED_PRECONDITION.
 */
public final class MemoryReclaim {
  private MemoryReclaim() {}

  /**
   * Reclaims {@code bytes} from the container of {@code view} (its name {@code name}, for
   * messages).
   */
  public static void reclaim(ContainerView view, String name, long bytes) {
    String what = "reclaim " + bytes + " bytes from " + name;
    if (bytes < 1) {
      throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, what + ": bytes must be at least 1");
    }
    Hierarchy h = view.require("memory", "reclaim");
    if (!ContainerView.isV2(h)) {
      throw ContainerView.notOn(
          h,
          "reclaim",
          "v1 has no memory.reclaim (memory.force_empty works only on an empty cgroup)");
    }
    if (!view.has("memory")) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          what
              + ": the container does not isolate memory (its "
              + "parent does not enable the memory controller for it: give it a memory section first)");
    }
    try {
      view.fs().write(h, view.self(), "memory.reclaim", Long.toString(bytes));
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT && exists(view, h)) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            what
                + ": this kernel has no memory.reclaim (it "
                + "came with Linux 5.19): "
                + e.getMessage(),
            e);
      }
      if (e.errno() == Errno.EAGAIN) {
        throw new LmctfyException(
            ErrorCode.UNAVAILABLE,
            what
                + ": the kernel reclaimed less than that after its "
                + "retries (memory.current is now "
                + current(view, h)
                + " bytes; what is left may be unreclaimable, "
                + "such as anonymous memory without swap): "
                + e.getMessage(),
            e);
      }
      throw Errors.of(what, e);
    } catch (IOException e) {
      throw Errors.of(what, e);
    }
  }

  private static boolean exists(ContainerView view, Hierarchy h) {
    try {
      return view.fs().exists(h, view.self());
    } catch (IOException e) {
      return false;
    }
  }

  private static String current(ContainerView view, Hierarchy h) {
    try {
      return view.fs().read(h, view.self(), "memory.current").strip();
    } catch (IOException e) {
      return "unreadable (" + e.getMessage() + ")";
    }
  }
}
