package org.lmctfy.internal.resources;

import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * An update that lowers {@code memory.limit} below what the container uses. On v2 the kernel takes
 * any {@code memory.max}: it reclaims, and what it cannot reclaim it OOM-kills. So before the first
 * write of an update, the difference is reclaimed ({@code memory.reclaim}, Linux 5.19+) and, where
 * the usage stays above the new limit, the update is refused with FAILED_PRECONDITION naming both,
 * unless the caller forces it ({@code UpdateOption.FORCE_MEMORY_LIMIT}). On v1 the kernel reclaims
 * within the write and refuses with EBUSY what it cannot (forced or not): that refusal is named the
 * same way. The usage can still grow between the check and the write; the kernel then does what it
 * does with a forced limit.
 */
public final class MemoryShrink {
  private static final String V2_LIMIT = "memory.max";
  private static final String FORCE = "UpdateOption.FORCE_MEMORY_LIMIT";

  private MemoryShrink() {}

  /**
   * Reclaims, then refuses where the usage stays above a lower {@code memory.max} among {@code
   * writes}; nothing for v1, an unlimited value or a forced update.
   */
  public static void reclaimOrRefuse(
      ContainerView view, String name, List<FileWrite> writes, boolean force) throws IOException {
    for (FileWrite w : writes) {
      long limit = bytes(w);
      if (force || limit < 0 || !w.file().equals(V2_LIMIT) || !ContainerView.isV2(w.hierarchy())) {
        continue;
      }
      Hierarchy h = w.hierarchy();
      long usage = number(view.fs().read(h, view.self(), "memory.current"));
      if (usage <= limit || !mayWrite(view, h)) {
        continue; // a write refused (PERMISSION_DENIED) goes as it is: nothing to reclaim for
      }
      String reclaim = reclaim(view, name, usage - limit);
      long left = number(view.fs().read(h, view.self(), "memory.current"));
      if (left > limit) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            "update "
                + name
                + ": "
                + w.field()
                + " "
                + limit
                + " is below what the container uses: "
                + h.display(view.self(), "memory.current")
                + " is "
                + left
                + " bytes after "
                + reclaim
                + "; the kernel would OOM-kill its processes to honour it. Free memory in the"
                + " container first, or give "
                + FORCE
                + " for a resize that must happen");
      }
    }
  }

  /**
   * v1's refusal of a limit below the usage it could not reclaim (EBUSY from {@code
   * memory.limit_in_bytes} or {@code memory.memsw.limit_in_bytes}), named with the usage; null for
   * any other failure.
   */
  public static @Nullable LmctfyException v1Refusal(
      CgroupFs fs, CgroupPath path, FileWrite w, CgroupFsException e) {
    if (e.errno() != Errno.EBUSY || !w.file().endsWith(".limit_in_bytes")) {
      return null;
    }
    String usageFile = w.file().replace(".limit_in_bytes", ".usage_in_bytes");
    String usage;
    try {
      usage = fs.read(w.hierarchy(), path, usageFile).strip() + " bytes";
    } catch (IOException unread) {
      usage = "unreadable (" + unread.getMessage() + ")";
    }
    return new LmctfyException(
        ErrorCode.FAILED_PRECONDITION,
        w.field()
            + " "
            + w.value()
            + " is below what the container uses ("
            + w.hierarchy().display(path, usageFile)
            + " "
            + usage
            + ") and the kernel could not reclaim it down to that: "
            + e.getMessage()
            + "; free memory in the container first (cgroup v1 takes no forced limit, "
            + FORCE
            + " or not)",
        e);
  }

  /**
   * Whether this process may write the container's {@code memory.max}: root, or its owner (a tenant
   * below a delegated cgroup does not own the limits of the cgroup delegated to it, and its update
   * is refused by the kernel before anything is reclaimed on its behalf).
   */
  private static boolean mayWrite(ContainerView view, Hierarchy h) throws IOException {
    int uid = view.fs().effectiveUid();
    return uid == 0 || view.fs().owner(h, view.self(), V2_LIMIT).uid() == uid;
  }

  /**
   * Asks for {@code bytes} back ({@link MemoryReclaim}); says what came of it: a reclaim that fell
   * short (UNAVAILABLE) or a kernel without {@code memory.reclaim} (FAILED_PRECONDITION) is the
   * caller's to judge from the usage left, any other failure is thrown.
   */
  private static String reclaim(ContainerView view, String name, long bytes) {
    try {
      MemoryReclaim.reclaim(view, name, bytes);
      return "reclaiming " + bytes + " bytes (memory.reclaim)";
    } catch (LmctfyException e) {
      if (e.code() == ErrorCode.UNAVAILABLE || e.code() == ErrorCode.FAILED_PRECONDITION) {
        return "asking for " + bytes + " bytes back (" + e.getMessage() + ")";
      }
      throw e;
    }
  }

  /** The bytes a write sets, or -1 for unlimited or a value that is not a plain number. */
  private static long bytes(FileWrite w) {
    try {
      return Long.parseLong(w.value().strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static long number(String s) {
    return Long.parseLong(s.strip());
  }
}
