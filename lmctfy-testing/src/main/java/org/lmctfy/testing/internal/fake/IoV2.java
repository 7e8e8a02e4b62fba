package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.lmctfy.cgroupfs.Errno;

/**
 * The v2 io controller, from Documentation/admin-guide/cgroup-v2.rst: io.weight "default N" plus
 * "MAJ:MIN N" overrides (1..10000, ERANGE outside; "MAJ:MIN default" removes one), io.max lines
 * "MAJ:MIN rbps=N wbps=N riops=N wiops=N" ("max" lifts a limit; a line with no limit left goes
 * away); a per-device io.weight line is the iocost controller's: EOPNOTSUPP unless the root's
 * io.cost.qos has "MAJ:MIN enable=1" for the device; io.latency lines "MAJ:MIN target=N" (µs;
 * "target=max" removes one). An unknown device is ENODEV.
 */
final class IoV2 extends Controller {
  private static final List<String> KEYS = List.of("rbps", "wbps", "riops", "wiops");

  private final Machine machine;

  IoV2(Machine machine) {
    super(
        "io",
        List.of(
            rw("io.cost.qos", "").rootOnly(),
            rw("io.latency", "").childOnly(),
            rw("io.max", "").childOnly(),
            ro("io.stat", ""),
            rw("io.weight", "default 100\n").childOnly()));
    this.machine = machine;
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String[] f = Numbers.strip(value).split("\\s+");
    Map<String, String> lines = new TreeMap<>();
    String[] old = super.read(node, file).split("\n");
    for (String line : old) {
      if (!line.isEmpty() && !line.startsWith("default ")) {
        lines.put(line.substring(0, line.indexOf(' ')), line.substring(line.indexOf(' ') + 1));
      }
    }
    if (file.name().equals("io.cost.qos")) {
      machine.blockDevice(f[0]);
      if (f.length < 2 || !f[1].matches("enable=[01]")) {
        throw KernelError.of(Errno.EINVAL);
      }
      lines.put(f[0], f[1] + " ctrl=user");
      StringBuilder sb = new StringBuilder();
      lines.forEach((dev, l) -> sb.append(dev).append(' ').append(l).append('\n'));
      node.put(file.name(), sb.toString());
      return;
    }
    if (file.name().equals("io.weight")) {
      String dflt = old[0].substring("default ".length());
      if (f.length == 1 || f[0].equals("default")) {
        dflt = Long.toString(weight(f[f.length - 1]));
      } else if (f.length == 2) {
        machine.blockDevice(f[0]);
        Node root = node;
        while (!root.isRoot()) {
          root = root.parent;
        }
        String qos = root.value("io.cost.qos");
        if (qos == null || !qos.contains(f[0] + " enable=1")) {
          throw KernelError.of(Errno.EOPNOTSUPP);
        }
        if (f[1].equals("default")) {
          lines.remove(f[0]);
        } else {
          lines.put(f[0], Long.toString(weight(f[1])));
        }
      } else {
        throw KernelError.of(Errno.EINVAL);
      }
      StringBuilder sb = new StringBuilder("default ").append(dflt).append('\n');
      lines.forEach((dev, w) -> sb.append(dev).append(' ').append(w).append('\n'));
      node.put(file.name(), sb.toString());
      return;
    }
    machine.blockDevice(f[0]);
    if (file.name().equals("io.latency")) {
      if (f.length != 2 || !f[1].startsWith("target=")) {
        throw KernelError.of(Errno.EINVAL);
      }
      String target = f[1].substring("target=".length());
      if (target.equals("max")) {
        lines.remove(f[0]);
      } else {
        lines.put(f[0], "target=" + Long.toUnsignedString(Numbers.kstrtoull(target)));
      }
      StringBuilder sb = new StringBuilder();
      lines.forEach((dev, l) -> sb.append(dev).append(' ').append(l).append('\n'));
      node.put(file.name(), sb.toString());
      return;
    }
    Map<String, String> limits = new LinkedHashMap<>();
    KEYS.forEach(k -> limits.put(k, "max"));
    if (lines.containsKey(f[0])) {
      for (String kv : lines.get(f[0]).split(" ")) {
        limits.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
    }
    for (int i = 1; i < f.length; i++) {
      int eq = f[i].indexOf('=');
      if (eq < 0 || !KEYS.contains(f[i].substring(0, eq))) {
        throw KernelError.of(Errno.EINVAL);
      }
      String v = f[i].substring(eq + 1);
      limits.put(
          f[i].substring(0, eq),
          v.equals("max") ? "max" : Long.toUnsignedString(Numbers.kstrtoull(v)));
    }
    if (limits.values().stream().allMatch("max"::equals)) {
      lines.remove(f[0]);
    } else {
      StringBuilder kv = new StringBuilder();
      limits.forEach(
          (k, v) -> kv.append(kv.length() == 0 ? "" : " ").append(k).append('=').append(v));
      lines.put(f[0], kv.toString());
    }
    StringBuilder sb = new StringBuilder();
    lines.forEach((dev, l) -> sb.append(dev).append(' ').append(l).append('\n'));
    node.put(file.name(), sb.toString());
  }

  private static long weight(String s) {
    long w = Numbers.kstrtoull(s);
    if (w < 1 || w > 10000) {
      throw KernelError.of(Errno.ERANGE);
    }
    return w;
  }
}
