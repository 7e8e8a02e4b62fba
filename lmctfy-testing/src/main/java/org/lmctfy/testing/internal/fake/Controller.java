package org.lmctfy.testing.internal.fake;

import java.util.List;

/**
 * The interface files one controller (or the cgroup core) gives a cgroup, and the kernel's rules
 * for them. Implementations are stateless; state lives in {@link Node}.
 */
abstract class Controller {
  private final String name;
  private final List<FileSpec> files;

  /** {@code files} is every file this controller may give a cgroup. */
  Controller(String name, List<FileSpec> files) {
    this.name = name;
    this.files = List.copyOf(files);
  }

  /** The controller's name as the kernel spells it ({@code "memory"}); "" for the core. */
  final String name() {
    return name;
  }

  /** Every file this controller may give a cgroup. */
  final List<FileSpec> files() {
    return files;
  }

  /** The file's current content; the default returns the stored value or the initial one. */
  public String read(Node node, FileSpec file) {
    String stored = node.value(file.name());
    return stored != null ? stored : file.initial();
  }

  /** Validates a non-empty write as the kernel does and applies it, or throws a KernelError. */
  public abstract void write(Node node, FileSpec file, String value);

  /** Refuses (KernelError) moving a task into {@code target}; the default accepts. */
  public void checkAttach(Node target) {}

  /** Called once for a new cgroup, to copy what the kernel copies from the parent. */
  public void created(Node node) {}
}
