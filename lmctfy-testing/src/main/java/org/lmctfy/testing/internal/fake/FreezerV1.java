package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/**
 * The v1 freezer. Checked on this kernel: its files exist only below the root; freezer.state takes
 * FROZEN or THAWED with surrounding whitespace ignored ("frozen", "FREEZING" are EINVAL); a cgroup
 * reads FROZEN while it or an ancestor is frozen, self_freezing says it was frozen itself,
 * parent_freezing that an ancestor was. The fake freezes at once, so it never shows FREEZING.
 */
final class FreezerV1 extends Controller {
  private static final String STATE = "freezer.state";
  private static final List<FileSpec> FILES =
      List.of(
          ro("freezer.parent_freezing", null).childOnly(),
          ro("freezer.self_freezing", null).childOnly(),
          rw(STATE, null).childOnly());

  static final FreezerV1 INSTANCE = new FreezerV1();

  private FreezerV1() {
    super("freezer", FILES);
  }

  static boolean selfFrozen(Node node) {
    return node.value(STATE) != null;
  }

  static boolean parentFrozen(Node node) {
    for (Node n = node.parent; n != null; n = n.parent) {
      if (selfFrozen(n)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String read(Node node, FileSpec file) {
    return switch (file.name()) {
      case "freezer.parent_freezing" -> parentFrozen(node) ? "1\n" : "0\n";
      case "freezer.self_freezing" -> selfFrozen(node) ? "1\n" : "0\n";
      default -> selfFrozen(node) || parentFrozen(node) ? "FROZEN\n" : "THAWED\n";
    };
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    switch (Numbers.strip(value)) {
      case "FROZEN" -> node.put(STATE, "FROZEN\n");
      case "THAWED" -> node.forget(STATE);
      default -> throw KernelError.of(Errno.EINVAL);
    }
  }
}
