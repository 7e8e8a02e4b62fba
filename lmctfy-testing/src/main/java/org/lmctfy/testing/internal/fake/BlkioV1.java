package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;
import static org.lmctfy.testing.internal.fake.FileSpec.wo;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.lmctfy.cgroupfs.Errno;

/**
 * The v1 blkio controller as this machine has it (throttling and BFQ files, no CFQ blkio.weight).
 * Checked: blkio.bfq.weight and blkio.bfq.weight_device exist only below the root; the weight is
 * 1..1000, else ERANGE ("abc" EINVAL); weight_device takes "default N" (ERANGE outside 1..1000) and
 * per-device weights are EOPNOTSUPP because the disk does not use BFQ; throttle files take "MAJ:MIN
 * N" for an existing disk (else ENODEV), N a u64 ("max", "-1" EINVAL), 0 removes the rule; the
 * stats read "Total 0" until I/O happens.
 */
final class BlkioV1 extends Controller {
  private static final String TOTAL = "Total 0\n";
  private static final List<String> THROTTLES =
      List.of(
          "blkio.throttle.read_bps_device",
          "blkio.throttle.read_iops_device",
          "blkio.throttle.write_bps_device",
          "blkio.throttle.write_iops_device");

  private final Machine machine;

  BlkioV1(Machine machine) {
    super(
        "blkio",
        List.of(
            ro("blkio.bfq.io_service_bytes", TOTAL),
            ro("blkio.bfq.io_service_bytes_recursive", TOTAL),
            ro("blkio.bfq.io_serviced", TOTAL),
            ro("blkio.bfq.io_serviced_recursive", TOTAL),
            rw("blkio.bfq.weight", "100\n").childOnly(),
            rw("blkio.bfq.weight_device", "default 100\n").childOnly(),
            wo("blkio.reset_stats"),
            ro("blkio.throttle.io_service_bytes", TOTAL),
            ro("blkio.throttle.io_service_bytes_recursive", TOTAL),
            ro("blkio.throttle.io_serviced", TOTAL),
            ro("blkio.throttle.io_serviced_recursive", TOTAL),
            rw(THROTTLES.get(0), ""),
            rw(THROTTLES.get(1), ""),
            rw(THROTTLES.get(2), ""),
            rw(THROTTLES.get(3), "")));
    this.machine = machine;
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String name = file.name();
    if (name.equals("blkio.reset_stats")) {
      return;
    }
    if (name.equals("blkio.bfq.weight")) {
      node.put(name, weight(Numbers.strip(value)) + "\n");
      return;
    }
    String[] f = Numbers.strip(value).split("\\s+");
    if (f.length != 2) {
      throw KernelError.of(Errno.EINVAL);
    }
    if (name.equals("blkio.bfq.weight_device")) {
      if (!f[0].equals("default")) {
        machine.blockDevice(f[0]);
        throw KernelError.of(Errno.EOPNOTSUPP);
      }
      node.put(name, "default " + weight(f[1]) + "\n");
      return;
    }
    String dev = machine.blockDevice(f[0]);
    long v = Numbers.kstrtoull(f[1]);
    Map<String, String> rules = new TreeMap<>();
    for (String line : super.read(node, file).split("\n")) {
      if (!line.isEmpty()) {
        rules.put(line.substring(0, line.indexOf(' ')), line);
      }
    }
    if (v == 0) {
      rules.remove(dev);
    } else {
      rules.put(dev, dev + " " + Long.toUnsignedString(v));
    }
    StringBuilder sb = new StringBuilder();
    rules.values().forEach(l -> sb.append(l).append('\n'));
    node.put(name, sb.toString());
  }

  private static long weight(String s) {
    long w = Numbers.kstrtoull(s);
    if (w < 1 || w > 1000) {
      throw KernelError.of(Errno.ERANGE);
    }
    return w;
  }
}
