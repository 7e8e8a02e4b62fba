package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.BitSet;
import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/**
 * The v2 cpuset controller, from Documentation/admin-guide/cgroup-v2.rst: cpuset.cpus and .mems may
 * name anything the machine has (unlike v1 they are not limited to the parent's); the effective
 * lists are the requested ones within the parent's effective ones, or the parent's when that is
 * empty; cpuset.cpus.partition is member, root or isolated, and a root or isolated one reads "root
 * invalid (reason)" unless its parent is the root cgroup or a valid partition root and its
 * cpuset.cpus are not empty (what 6.1 and 6.12 said; they also check exclusivity against the
 * siblings, which the fake does not).
 */
final class CpusetV2 extends Controller {
  private final Machine machine;

  CpusetV2(Machine machine) {
    super(
        "cpuset",
        List.of(
            rw("cpuset.cpus", "\n").childOnly(),
            ro("cpuset.cpus.effective", null),
            rw("cpuset.cpus.exclusive", "\n").childOnly(),
            ro("cpuset.cpus.exclusive.effective", "\n").childOnly(),
            ro("cpuset.cpus.isolated", "\n").rootOnly(),
            rw("cpuset.cpus.partition", "member\n").childOnly(),
            rw("cpuset.mems", "\n").childOnly(),
            ro("cpuset.mems.effective", null)));
    this.machine = machine;
  }

  private BitSet effective(Node node, boolean cpus) {
    if (node.isRoot()) {
      return cpus ? machine.cpuSet() : machine.memSet();
    }
    BitSet parent = effective(node.parent, cpus);
    String own = node.value(cpus ? "cpuset.cpus" : "cpuset.mems");
    if (own == null) {
      return parent;
    }
    BitSet mine = CpuList.read(own);
    mine.and(parent);
    return mine.isEmpty() ? parent : mine;
  }

  @Override
  public String read(Node node, FileSpec file) {
    return switch (file.name()) {
      case "cpuset.cpus.effective" -> CpuList.format(effective(node, true));
      case "cpuset.mems.effective" -> CpuList.format(effective(node, false));
      case "cpuset.cpus.partition" -> partition(node);
      default -> super.read(node, file);
    };
  }

  /** member, or root/isolated, valid or "invalid (reason)". */
  private static String partition(Node node) {
    String type =
        node.value("cpuset.cpus.partition") == null
            ? "member"
            : Numbers.strip(node.value("cpuset.cpus.partition"));
    if (type.equals("member")) {
      return "member\n";
    }
    String own = node.value("cpuset.cpus");
    if (!node.parent.isRoot() && !partition(node.parent).matches("(root|isolated)\n")) {
      return type + " invalid (Parent is not a partition root)\n";
    }
    if (own == null || Numbers.strip(own).isEmpty()) {
      return type + " invalid (cpuset.cpus is empty)\n";
    }
    return type + "\n";
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String name = file.name();
    switch (name) {
      case "cpuset.cpus", "cpuset.cpus.exclusive" ->
          node.put(
              name, CpuList.format(CpuList.parse(value, machine.cpuSet().length(), Errno.ERANGE)));
      case "cpuset.mems" -> {
        BitSet mems = CpuList.parse(value, machine.memSet().length(), Errno.EINVAL);
        node.put(name, CpuList.format(mems));
      }
      default -> {
        String s = Numbers.strip(value);
        if (!s.equals("member") && !s.equals("root") && !s.equals("isolated")) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put(name, s + "\n");
      }
    }
  }
}
