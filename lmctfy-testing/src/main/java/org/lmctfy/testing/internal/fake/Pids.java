package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/**
 * The pids controller, the same in v1 and v2. Checked on v1: files only below the root; pids.max is
 * "max" or 0..4194304 with whitespace ignored ("MAX", "-1", 4194305 are EINVAL); pids.current
 * counts the tasks of the subtree.
 */
final class Pids extends Controller {
  static final long PID_MAX_LIMIT = 4194304;

  private static final List<FileSpec> FILES =
      List.of(
          ro("pids.current", null).childOnly(),
          ro("pids.events", "max 0\n").childOnly(),
          rw("pids.max", "max\n").childOnly(),
          ro("pids.peak", "0\n").childOnly());

  static final Pids INSTANCE = new Pids();

  private Pids() {
    super("pids", FILES);
  }

  @Override
  public String read(Node node, FileSpec file) {
    if (file.name().equals("pids.current") && node.value("pids.current") == null) {
      return node.subtreeTasks() + "\n";
    }
    return super.read(node, file);
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String s = Numbers.strip(value);
    if (s.equals("max")) {
      node.forget("pids.max");
      return;
    }
    long v = Numbers.kstrtoll(s);
    if (v < 0 || v > PID_MAX_LIMIT) {
      throw KernelError.of(Errno.EINVAL);
    }
    node.put("pids.max", v + "\n");
  }
}
