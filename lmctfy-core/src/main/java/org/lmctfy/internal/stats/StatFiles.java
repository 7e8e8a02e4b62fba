package org.lmctfy.internal.stats;

import java.io.IOException;
import java.util.Map;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.FlatKeyed;
import org.lmctfy.internal.lifecycle.Errors;

/**
 * Reads one container's stat files: a file this kernel lacks is {@code null} (the field stays
 * absent), a container that is gone is NOT_FOUND, any other refusal is an error naming the file.
 */
final class StatFiles {
  private final CgroupFs fs;
  private final String name;
  private final CgroupPath path;

  StatFiles(CgroupFs fs, String name, CgroupPath path) {
    this.fs = fs;
    this.name = name;
    this.path = path;
  }

  CgroupPath path() {
    return path;
  }

  /** The file's content, or null if this cgroup has no such file. */
  String read(Hierarchy h, String file) {
    return read(h, path, file);
  }

  String read(Hierarchy h, CgroupPath p, String file) {
    try {
      return fs.read(h, p, file);
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT) {
        if (!exists(h, p)) {
          throw new LmctfyException(ErrorCode.NOT_FOUND, "container " + name + " does not exist (its cgroup "
              + h.display(p, null) + " is gone)", e);
        }
        return null;
      }
      throw fail(e);
    } catch (IOException e) {
      throw fail(e);
    }
  }

  private boolean exists(Hierarchy h, CgroupPath p) {
    try {
      return fs.exists(h, p);
    } catch (IOException e) {
      throw fail(e);
    }
  }

  private LmctfyException fail(IOException e) {
    return Errors.of("stats of " + name, e);
  }

  /** A single number, or null if the file is absent; {@code max} is -1. */
  Long number(Hierarchy h, String file) {
    String text = read(h, file);
    if (text == null) {
      return null;
    }
    String v = text.strip();
    return v.equals("max") ? -1L : parse(v, file);
  }

  /** The {@code key value} lines of a file such as memory.stat or cpu.stat, or null if absent. */
  Map<String, Long> keyed(Hierarchy h, String file) {
    String text = read(h, file);
    return text == null ? null : keyed(text, file);
  }

  static Map<String, Long> keyed(String text, String file) {
    return FlatKeyed.parse(text, file);
  }

  static long parse(String v, String file) {
    return FlatKeyed.number(v, file);
  }
}
