package org.lmctfy.internal.resources;

import java.util.List;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.CpuLists;
import org.lmctfy.spec.CpuSpec;

/**
 * The cpuset part of the cpu section: {@code mask} is {@code cpuset.cpus}, {@code memory_nodes}
 * {@code cpuset.mems}, each within the parent's. A new v1 cpuset gets its parent's cpus and memory
 * nodes unless the spec gives them (an empty cpuset cannot hold a process); a v2 REPLACE without
 * them writes a newline to {@code cpuset.cpus}/{@code .mems}, which clears the restriction (the
 * parent's effective set applies again; an empty write changes nothing). {@code partition} is v2's
 * {@code cpuset.cpus.partition}: {@code member} is written before the cpus change, {@code root} and
 * {@code isolated} after them, and the file is read back: the kernel's {@code "root invalid
 * (reason)"} is FAILED_PRECONDITION with the reason, undone like any failed write. A mask changed
 * in a partition that stays one is checked the same way.
 */
final class Cpuset {
  static final String PARTITION = "cpuset.cpus.partition";
  private static final String NO_PARTITIONS = "cpuset partitions came with Linux 5.13";

  private Cpuset() {}

  static void plan(CpuSpec c, Mode mode, ContainerView view, List<FileWrite> out) {
    boolean needed = c.mask() != null || c.memoryNodes() != null || c.partition() != null;
    Hierarchy h =
        needed
            ? view.require(
                "cpuset",
                c.mask() != null
                    ? "cpu.mask"
                    : c.memoryNodes() != null ? "cpu.memory_nodes" : "cpu.partition")
            : view.find("cpuset").orElse(null);
    if (h == null || !needed && mode == Mode.REPLACE && !view.has("cpuset")) {
      return;
    }
    if (c.partition() != null && !ContainerView.isV2(h)) {
      throw ContainerView.notOn(
          h,
          "cpu.partition",
          "v1 has no cpuset partitions (its cpuset.cpu_exclusive is another thing)");
    }
    // the partition now (on update), and the one wanted: member goes before the cpus change, a
    // root or isolated partition after them; one that stays a partition is checked after them
    String now =
        mode != Mode.CREATE && ContainerView.isV2(h) && view.selfHas(h, PARTITION)
            ? view.readSelf(h, PARTITION).split(" ")[0]
            : "member";
    String wanted =
        c.partition() != null
            ? c.partition().name().toLowerCase(java.util.Locale.ROOT)
            : mode == Mode.REPLACE ? "member" : null;
    if ("member".equals(wanted) && !now.equals("member")) {
      out.add(new FileWrite(h, PARTITION, "member", "cpu.partition", NO_PARTITIONS));
    }
    boolean copyParent = mode == Mode.REPLACE || mode == Mode.CREATE && !ContainerView.isV2(h);
    String[][] files = {
      {"cpuset.cpus", c.mask(), "cpu.mask"}, {"cpuset.mems", c.memoryNodes(), "cpu.memory_nodes"}
    };
    for (String[] f : files) {
      if (f[1] == null && !copyParent) {
        continue;
      }
      if (f[1] == null && ContainerView.isV2(h)) {
        if (view.selfHas(h, f[0])) {
          out.add(
              new FileWrite(h, f[0], "\n", f[2])); // clears it: the parent's effective set applies
        }
        continue;
      }
      // v2: the parent may not have the cpuset files (its own parent did not enable cpuset for it);
      // its effective list is then its nearest ancestor's with them
      String[] nearest =
          ContainerView.isV2(h)
              ? view.readNearest(h, f[0] + ".effective")
              : new String[] {view.readParent(h, f[0]), null};
      String parentList = nearest[0];
      if (f[1] != null) {
        if (!CpuLists.within(f[1], parentList, f[2])) {
          throw Units.invalid(
              f[2],
              "\"" + f[1] + "\"",
              "is not within the parent's "
                  + (nearest[1] == null ? f[0] : f[0] + ".effective (" + nearest[1] + ")")
                  + " \""
                  + parentList
                  + "\"");
        }
        out.add(new FileWrite(h, f[0], f[1], f[2]));
      } else if (!parentList.isEmpty()) {
        out.add(
            new FileWrite(h, f[0], parentList, f[2])); // v1: an empty cpuset refuses tasks (ENOSPC)
      }
    }
    String after =
        wanted != null && !wanted.equals("member")
            ? wanted
            : wanted == null && !now.equals("member") && c.mask() != null ? now : null;
    if (after != null) {
      out.add(
          new FileWrite(
              h, PARTITION, after, "cpu.partition", NO_PARTITIONS, FileWrite.Check.VALID));
    }
  }
}
