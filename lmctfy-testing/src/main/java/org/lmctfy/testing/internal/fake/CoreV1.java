package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.List;

/**
 * The files every v1 hierarchy has, named ones too. Checked on this kernel: release_agent and
 * cgroup.sane_behavior exist only at the root; cgroup.clone_children and notify_on_release take any
 * u64 (non-zero reads 1, "-1" and "abc" are EINVAL) and a new cgroup inherits both.
 */
final class CoreV1 extends Controller {
  private static final List<FileSpec> FILES =
      List.of(
          rw("cgroup.clone_children", "0\n"),
          rw("cgroup.procs", null),
          ro("cgroup.sane_behavior", "0\n").rootOnly(),
          rw("notify_on_release", "0\n"),
          rw("release_agent", "\n").rootOnly(),
          rw("tasks", null));

  static final CoreV1 INSTANCE = new CoreV1();

  /** What a new cgroup copies from its parent. */
  private static final List<String> INHERITED =
      List.of("cgroup.clone_children", "notify_on_release");

  private CoreV1() {
    super("", FILES);
  }

  @Override
  public String read(Node node, FileSpec file) {
    return switch (file.name()) {
      case "cgroup.procs" -> Tasks.procs(node);
      case "tasks" -> Tasks.tasks(node);
      default -> super.read(node, file);
    };
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    switch (file.name()) {
      case "cgroup.procs" -> Tasks.moveProcess(node, Tasks.target(node, value));
      case "tasks" -> Tasks.moveThread(node, Tasks.target(node, value));
      case "release_agent" -> node.put(file.name(), Numbers.strip(value) + "\n");
      default -> node.put(file.name(), Tasks.flag(value));
    }
  }

  @Override
  public void created(Node node) {
    for (String inherited : INHERITED) {
      String v = node.parent.value(inherited);
      if (v != null) {
        node.put(inherited, v);
      }
    }
  }
}
