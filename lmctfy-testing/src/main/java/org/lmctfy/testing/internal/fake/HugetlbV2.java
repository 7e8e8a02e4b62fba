package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.ArrayList;
import java.util.List;

/**
 * The v2 hugetlb controller, one set of files per huge page size ("2MB", "1GB"). Checked here: none
 * of its files is at the root. From the documentation: limits are "max" or bytes, rounded down to
 * the huge page size.
 */
final class HugetlbV2 extends Controller {
  HugetlbV2(Machine machine) {
    super("hugetlb", files(machine));
  }

  private static List<FileSpec> files(Machine machine) {
    List<FileSpec> f = new ArrayList<>();
    for (String size : machine.hugepageSizes()) {
      String p = "hugetlb." + size + ".";
      f.add(ro(p + "current", "0\n").childOnly());
      f.add(ro(p + "events", "max 0\n").childOnly());
      f.add(ro(p + "events.local", "max 0\n").childOnly());
      f.add(rw(p + "max", "max\n").childOnly());
      f.add(ro(p + "numa_stat", "total=0 N0=0\n").childOnly());
      f.add(ro(p + "rsvd.current", "0\n").childOnly());
      f.add(rw(p + "rsvd.max", "max\n").childOnly());
    }
    return f;
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    node.put(
        file.name(), Numbers.printMax(roundToHugePage(Numbers.maxOrBytes(value), file.name())));
  }

  /** Rounds bytes down to the page size named in a file like "hugetlb.2MB.max"; max stays max. */
  static long roundToHugePage(long bytes, String file) {
    if (bytes == Numbers.PAGE_COUNTER_MAX) {
      return bytes;
    }
    String size = file.split("\\.")[1];
    long unit =
        Long.parseLong(size.substring(0, size.length() - 2))
            << (size.endsWith("GB") ? 30 : size.endsWith("MB") ? 20 : 10);
    return bytes / unit * unit;
  }
}
