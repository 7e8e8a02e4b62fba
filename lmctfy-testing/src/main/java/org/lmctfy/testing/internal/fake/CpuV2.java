package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/**
 * The v2 cpu controller, from Documentation/admin-guide/cgroup-v2.rst and the kernel's conversions:
 * cpu.weight 1..10000 (ERANGE outside), cpu.weight.nice -20..19 (ERANGE), the two kept consistent
 * through the scheduler's weight table; cpu.max "$MAX [$PERIOD]" with quota at least 1000 and the
 * period 1000..1000000 (EINVAL); cpu.max.burst not above the quota; cpu.idle 0/1, and while it is 1
 * a weight write is EINVAL (sched_group_set_shares refuses an idle group); cpu.uclamp.min/.max a
 * percentage with at most two decimals or "max" (ERANGE above 100, EINVAL for more decimals or
 * garbage), kept as written with two decimals and shown "max" at 100, as a kernel built with
 * CONFIG_UCLAMP_TASK_GROUP does (Debian's 6.1 and 6.12 are built without it). cpu.stat is a core
 * file.
 */
final class CpuV2 extends Controller {
  /** sched_prio_to_weight: nice -20..19. */
  private static final int[] PRIO_TO_WEIGHT = {
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904,
    3906, 3121, 2501, 1991, 1586, 1277, 1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87,
    70, 56, 45, 36, 29, 23, 18, 15
  };

  private static final List<FileSpec> FILES =
      List.of(
          rw("cpu.idle", "0\n").childOnly(),
          rw("cpu.max", "max 100000\n").childOnly(),
          rw("cpu.max.burst", "0\n").childOnly(),
          rw("cpu.uclamp.max", "max\n").childOnly(),
          rw("cpu.uclamp.min", "0.00\n").childOnly(),
          rw("cpu.weight", "100\n").childOnly(),
          rw("cpu.weight.nice", "0\n").childOnly());

  static final CpuV2 INSTANCE = new CpuV2();

  private CpuV2() {
    super("cpu", FILES);
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    switch (file.name()) {
      case "cpu.weight" -> {
        long w = Numbers.kstrtoull(value);
        if (w < 1 || w > 10000) {
          throw KernelError.of(Errno.ERANGE);
        }
        if ("1\n".equals(node.value("cpu.idle"))) {
          throw KernelError.of(Errno.EINVAL);
        }
        setShares(node, Math.round(w * 1024 / 100.0));
      }
      case "cpu.weight.nice" -> {
        long nice = Numbers.kstrtoll(value);
        if (nice < -20 || nice > 19) {
          throw KernelError.of(Errno.ERANGE);
        }
        if ("1\n".equals(node.value("cpu.idle"))) {
          throw KernelError.of(Errno.EINVAL);
        }
        setShares(node, PRIO_TO_WEIGHT[(int) nice + 20]);
      }
      case "cpu.max" -> writeMax(node, value);
      case "cpu.uclamp.min", "cpu.uclamp.max" -> node.put(file.name(), uclamp(value));
      case "cpu.max.burst" -> {
        long burst = Numbers.kstrtoull(value);
        long quota = quota(node);
        if (burst < 0 || burst > CpuV1.MAX_CFS_US || (quota >= 0 && burst > quota)) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put("cpu.max.burst", burst + "\n");
      }
      default -> {
        long v = Numbers.kstrtoll(value);
        if (v != 0 && v != 1) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put("cpu.idle", v + "\n");
      }
    }
  }

  /** capacity_from_percent(): "max", or a percentage with up to two decimals, 0..100. */
  private static String uclamp(String value) {
    String s = Numbers.strip(value);
    if (s.equals("max")) {
      return "max\n";
    }
    if (!s.matches("[0-9]+(\\.[0-9]{1,2})?")) {
      throw KernelError.of(Errno.EINVAL);
    }
    java.math.BigDecimal pct = new java.math.BigDecimal(s);
    if (pct.compareTo(java.math.BigDecimal.valueOf(100)) > 0) {
      throw KernelError.of(Errno.ERANGE);
    }
    return pct.compareTo(java.math.BigDecimal.valueOf(100)) == 0 ? "max\n" : pct.setScale(2) + "\n";
  }

  private static void setShares(Node node, long shares) {
    long weight = Math.max(1, Math.min(10000, Math.round(shares * 100 / 1024.0)));
    int prio = 0;
    long last = Long.MAX_VALUE;
    for (; prio < PRIO_TO_WEIGHT.length; prio++) {
      long delta = Math.abs(PRIO_TO_WEIGHT[prio] - shares);
      if (delta >= last) {
        break;
      }
      last = delta;
    }
    node.put("cpu.weight", weight + "\n");
    node.put("cpu.weight.nice", (prio - 1 - 20) + "\n");
  }

  private static long quota(Node node) {
    String v = node.value("cpu.max");
    String q = v == null ? "max" : v.split(" ")[0];
    return q.equals("max") ? -1 : Long.parseLong(q);
  }

  private static void writeMax(Node node, String value) {
    String[] f = Numbers.strip(value).split("\\s+");
    if (f.length < 1 || f.length > 2 || f[0].isEmpty()) {
      throw KernelError.of(Errno.EINVAL);
    }
    String current = node.value("cpu.max");
    long period = current == null ? 100000 : Long.parseLong(Numbers.strip(current.split(" ")[1]));
    if (f.length == 2) {
      period = Numbers.kstrtoull(f[1]);
    }
    long quota = f[0].equals("max") ? -1 : Numbers.kstrtoull(f[0]);
    String burst = node.value("cpu.max.burst");
    if (period < 1000
        || period > 1_000_000
        || (quota != -1 && (quota < 1000 || quota > CpuV1.MAX_CFS_US))
        || (quota != -1 && burst != null && Numbers.stored(burst) > quota)) {
      throw KernelError.of(Errno.EINVAL);
    }
    node.put("cpu.max", (quota == -1 ? "max" : Long.toString(quota)) + " " + period + "\n");
  }
}
