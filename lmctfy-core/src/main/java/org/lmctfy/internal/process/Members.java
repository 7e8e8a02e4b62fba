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
 * cgroup and, recursively, of every cgroup below it (containers or not: all of it is inside).
 * A cgroup below that vanishes while it is read is skipped; the top one must exist.
 */
public final class Members {
  private Members() {}

  public static TreeSet<Long> of(CgroupFs fs, Hierarchy h, CgroupPath path, String file, boolean recursive)
      throws IOException {
    TreeSet<Long> ids = new TreeSet<>();
    collect(fs, h, path, file, recursive, true, ids);
    return ids;
  }

  private static void collect(CgroupFs fs, Hierarchy h, CgroupPath path, String file, boolean recursive,
      boolean top, TreeSet<Long> into) throws IOException {
    try {
      parse(fs.read(h, path, file), into);
      if (recursive) {
        for (String child : fs.children(h, path)) {
          collect(fs, h, path.resolve(child), file, true, false, into);
        }
      }
    } catch (CgroupFsException e) {
      if (top || e.errno() != Errno.ENOENT) {
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
