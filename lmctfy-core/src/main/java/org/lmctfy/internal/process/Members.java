package org.lmctfy.internal.process;

import java.io.IOException;
import java.util.TreeSet;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The ids in a membership file ({@code cgroup.procs}, {@code tasks}, {@code cgroup.threads}) of a
 * cgroup and, recursively, of every cgroup below it (containers or not: all of it is inside). A
 * cgroup below that vanishes while it is read is skipped; the top one must exist. Below the top, a
 * threaded cgroup's processes are in its thread root's {@code cgroup.procs}, as the kernel lists
 * them there (the threaded cgroup's own refuses reading, EOPNOTSUPP).
 */
public final class Members {
  private Members() {}

  public static TreeSet<Long> of(
      CgroupFs fs, Hierarchy h, CgroupPath path, String file, boolean recursive)
      throws IOException {
    TreeSet<Long> ids = new TreeSet<>();
    collect(fs, h, path, file, recursive, true, ids);
    return ids;
  }

  private static void collect(
      CgroupFs fs,
      Hierarchy h,
      CgroupPath path,
      String file,
      boolean recursive,
      boolean top,
      TreeSet<Long> into)
      throws IOException {
    try {
      parse(fs.read(h, path, file), into);
      if (recursive) {
        for (String child : fs.children(h, path)) {
          collect(fs, h, path.resolve(child), file, true, false, into);
        }
      }
    } catch (CgroupFsException e) {
      // below the top: a cgroup that vanished, or a threaded one, whose processes its thread root
      // lists (its cgroup.procs is EOPNOTSUPP, and so is every one below it)
      if (top
          || !(e.errno() == Errno.ENOENT
              || e.errno() == Errno.EOPNOTSUPP && file.equals("cgroup.procs"))) {
        throw e;
      }
    }
  }

  static void parse(String content, TreeSet<Long> into) {
    for (String line : content.split("\n")) {
      if (!line.isBlank()) {
        into.add(Long.parseLong(line.strip()));
      }
    }
  }
}
