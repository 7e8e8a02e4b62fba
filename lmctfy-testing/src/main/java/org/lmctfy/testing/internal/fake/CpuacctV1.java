package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/** The v1 cpuacct controller: counters only; cpuacct.usage accepts only 0, a reset (checked). */
final class CpuacctV1 extends Controller {
  CpuacctV1(Machine machine) {
    super("cpuacct", files(machine));
  }

  private static List<FileSpec> files(Machine machine) {
    int cpus = machine.cpuSet().length();
    StringBuilder all = new StringBuilder("cpu user system\n");
    StringBuilder perCpu = new StringBuilder();
    for (int i = 0; i < cpus; i++) {
      all.append(i).append(" 0 0\n");
      perCpu.append("0 ");
    }
    // Checked: usage_percpu prints "0 0 \n" on two cpus, trailing space included.
    String percpu = perCpu.append('\n').toString();
    List<FileSpec> f = new ArrayList<>();
    f.add(ro("cpuacct.stat", "user 0\nsystem 0\n"));
    f.add(rw("cpuacct.usage", "0\n"));
    f.add(ro("cpuacct.usage_all", all.toString()));
    f.add(ro("cpuacct.usage_percpu", percpu));
    f.add(ro("cpuacct.usage_percpu_sys", percpu));
    f.add(ro("cpuacct.usage_percpu_user", percpu));
    f.add(ro("cpuacct.usage_sys", "0\n"));
    f.add(ro("cpuacct.usage_user", "0\n"));
    return f;
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    if (Numbers.kstrtoull(value) != 0) {
      throw KernelError.of(Errno.EINVAL);
    }
    node.put(file.name(), "0\n");
  }
}
