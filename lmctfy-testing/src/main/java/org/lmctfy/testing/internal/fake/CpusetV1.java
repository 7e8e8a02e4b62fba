package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.BitSet;
import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/**
 * The v1 cpuset controller. Checked on this kernel: a child starts with empty cpus and mems unless
 * the parent has cgroup.clone_children 1; a cpu past the last one is ERANGE, a node past the last
 * one EINVAL, a list outside the parent's EACCES, "1-0" and "abc" EINVAL; shrinking a cpuset under
 * what a child uses is EBUSY; effective_* equal the cgroup's own lists; moving a task into a cpuset
 * with no cpus or mems is ENOSPC. From the kernel source: the root's lists cannot be written
 * (EACCES) and emptying the lists of a cpuset with tasks is ENOSPC.
 */
final class CpusetV1 extends Controller {
  private static final String CPUS = "cpuset.cpus";
  private static final String MEMS = "cpuset.mems";

  /** The machine's online cpus and memory nodes, parsed once: the root's lists. Never mutated. */
  private final BitSet machineCpus;

  private final BitSet machineMems;

  CpusetV1(Machine machine) {
    super(
        "cpuset",
        List.of(
            rw("cpuset.cpu_exclusive", "0\n"),
            rw(CPUS, "\n"),
            ro("cpuset.effective_cpus", null),
            ro("cpuset.effective_mems", null),
            rw("cpuset.mem_exclusive", "0\n"),
            rw("cpuset.mem_hardwall", "0\n"),
            rw("cpuset.memory_migrate", "0\n"),
            ro("cpuset.memory_pressure", "0\n"),
            rw("cpuset.memory_pressure_enabled", "0\n").rootOnly(),
            rw("cpuset.memory_spread_page", "0\n"),
            rw("cpuset.memory_spread_slab", "0\n"),
            rw(MEMS, "\n"),
            rw("cpuset.sched_load_balance", "1\n"),
            rw("cpuset.sched_relax_domain_level", "-1\n")));
    this.machineCpus = machine.cpuSet();
    this.machineMems = machine.memSet();
  }

  @Override
  public String read(Node node, FileSpec file) {
    return switch (file.name()) {
      case CPUS, "cpuset.effective_cpus" -> CpuList.format(list(node, CPUS));
      case MEMS, "cpuset.effective_mems" -> CpuList.format(list(node, MEMS));
      default -> super.read(node, file);
    };
  }

  private BitSet list(Node node, String file) {
    if (node.isRoot()) {
      return file.equals(CPUS) ? machineCpus : machineMems;
    }
    String v = node.value(file);
    return v == null ? new BitSet() : CpuList.read(v);
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String name = file.name();
    switch (name) {
      case CPUS, MEMS -> writeList(node, name, value);
      // -1..2 on this machine (checked: 3, 4, 5 and -2 are EINVAL).
      case "cpuset.sched_relax_domain_level" -> {
        long v = Numbers.kstrtoll(value);
        if (v < -1 || v > 2) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put(name, v + "\n");
      }
      default -> node.put(name, Tasks.flag(value));
    }
  }

  private void writeList(Node node, String name, String value) {
    boolean cpus = name.equals(CPUS);
    BitSet all = cpus ? machineCpus : machineMems;
    BitSet wanted = CpuList.parse(value, all.length(), cpus ? Errno.ERANGE : Errno.EINVAL);
    if (node.isRoot()) {
      throw KernelError.of(Errno.EACCES);
    }
    if (!cpus && !subset(wanted, all)) {
      throw KernelError.of(Errno.EINVAL);
    }
    if (!subset(wanted, list(node.parent, name))) {
      throw KernelError.of(Errno.EACCES);
    }
    for (Node child : node.children().values()) {
      if (!subset(list(child, name), wanted)) {
        throw KernelError.of(Errno.EBUSY);
      }
    }
    if (wanted.isEmpty() && node.hasTasks()) {
      throw KernelError.of(Errno.ENOSPC);
    }
    node.put(name, CpuList.format(wanted));
  }

  private static boolean subset(BitSet a, BitSet b) {
    for (int i = a.nextSetBit(0); i >= 0; i = a.nextSetBit(i + 1)) {
      if (!b.get(i)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void checkAttach(Node target) {
    if (list(target, CPUS).isEmpty() || list(target, MEMS).isEmpty()) {
      throw KernelError.of(Errno.ENOSPC);
    }
  }

  @Override
  public void created(Node node) {
    if ("1\n".equals(node.parent.value("cgroup.clone_children"))) {
      node.put(CPUS, CpuList.format(list(node.parent, CPUS)));
      node.put(MEMS, CpuList.format(list(node.parent, MEMS)));
    }
  }
}
