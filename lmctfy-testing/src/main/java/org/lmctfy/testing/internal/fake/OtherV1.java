package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/**
 * The v1 controllers this machine leaves unmounted (net_cls, net_prio, perf_event) and v1 hugetlb,
 * for hierarchies made with mount(). Modelled from the kernel's v1 documentation; not checked here.
 */
final class OtherV1 extends Controller {
  private OtherV1(String name, List<FileSpec> files) {
    super(name, files);
  }

  static OtherV1 of(String name, Machine machine) {
    List<FileSpec> f = new ArrayList<>();
    switch (name) {
      case "net_cls" -> f.add(rw("net_cls.classid", "0\n"));
      case "net_prio" -> {
        f.add(rw("net_prio.ifpriomap", "lo 0\n"));
        f.add(ro("net_prio.prioidx", "1\n"));
      }
      case "hugetlb" -> {
        for (String size : machine.hugepageSizes()) {
          String p = "hugetlb." + size + ".";
          f.add(rw(p + "limit_in_bytes", Numbers.PAGE_COUNTER_MAX + "\n"));
          f.add(rw(p + "max_usage_in_bytes", "0\n"));
          f.add(ro(p + "usage_in_bytes", "0\n"));
          f.add(rw(p + "failcnt", "0\n"));
        }
      }
      default -> {}
    }
    return new OtherV1(name, f);
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String f = file.name();
    if (f.equals("net_cls.classid")) {
      node.put(f, Long.toUnsignedString(Numbers.kstrtoull(value)) + "\n");
    } else if (f.equals("net_prio.ifpriomap")) {
      String[] p = Numbers.strip(value).split(" ");
      if (p.length != 2) {
        throw KernelError.of(Errno.EINVAL);
      }
      if (!p[0].equals("lo")) {
        throw KernelError.of(Errno.ENODEV);
      }
      node.put(f, "lo " + Numbers.kstrtoull(p[1]) + "\n");
    } else if (f.endsWith(".limit_in_bytes")) {
      String s = Numbers.strip(value);
      long bytes =
          s.equals("-1") ? Numbers.PAGE_COUNTER_MAX : Numbers.pageRound(Numbers.memparse(s));
      node.put(f, HugetlbV2.roundToHugePage(bytes, f) + "\n");
    } else {
      node.put(f, "0\n");
    }
  }
}
