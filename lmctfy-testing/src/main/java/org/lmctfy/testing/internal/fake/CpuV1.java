package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/** The v1 cpu controller. Every rule below was checked on this machine's kernel. */
final class CpuV1 extends Controller {
  /** The largest quota or burst, in us: 2^44 - 1 (checked: accepted; 99999999999999 is EINVAL). */
  static final long MAX_CFS_US = (1L << 44) - 1;

  private static final List<FileSpec> FILES =
      List.of(
          rw("cpu.cfs_burst_us", "0\n"),
          rw("cpu.cfs_period_us", "100000\n"),
          rw("cpu.cfs_quota_us", "-1\n"),
          rw("cpu.idle", "0\n"),
          rw("cpu.rt_period_us", "1000000\n"),
          rw("cpu.rt_runtime_us", "0\n"),
          rw("cpu.shares", "1024\n"),
          ro(
              "cpu.stat",
              "nr_periods 0\nnr_throttled 0\nthrottled_time 0\nnr_bursts 0\nburst_time 0\n"),
          ro("cpu.stat.local", "throttled_time 0\n"));

  static final CpuV1 INSTANCE = new CpuV1();

  private CpuV1() {
    super("cpu", FILES);
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String name = file.name();
    switch (name) {
      // u64 clamped to [2, 262144] (checked: 0 and 1 read 2, 262145 reads 262144, -5 EINVAL);
      // EINVAL while the group is idle (checked).
      case "cpu.shares" -> {
        long v = Numbers.kstrtoull(value);
        if (stored(node, "cpu.idle", 0) == 1) {
          throw KernelError.of(Errno.EINVAL);
        }
        long clamped =
            Long.compareUnsigned(v, 2) < 0 ? 2 : Long.compareUnsigned(v, 262144) > 0 ? 262144 : v;
        node.put(name, clamped + "\n");
      }
      // s64: any negative is -1 (checked: -2 reads -1), else 1000..2^44-1 and at least the burst.
      case "cpu.cfs_quota_us" -> {
        long v = Numbers.kstrtoll(value);
        if (v < 0) {
          node.put(name, "-1\n");
          return;
        }
        if (v < 1000 || v > MAX_CFS_US || v < stored(node, "cpu.cfs_burst_us", 0)) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put(name, v + "\n");
      }
      // u64 in 1000..1000000 (checked: 999 and 1000001 EINVAL).
      case "cpu.cfs_period_us" -> {
        long v = Numbers.kstrtoull(value);
        if (v < 1000 || v > 1_000_000) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put(name, v + "\n");
      }
      // u64 not above the quota when there is one (checked: burst 6000 over quota 5000 EINVAL).
      case "cpu.cfs_burst_us" -> {
        long v = Numbers.kstrtoull(value);
        long quota = stored(node, "cpu.cfs_quota_us", -1);
        if (v < 0 || v > MAX_CFS_US || (quota >= 0 && v > quota)) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put(name, v + "\n");
      }
      // 0 or 1 (checked: 2 and -1 EINVAL). A change sets the weight (checked): idle reads shares 3
      // (WEIGHT_IDLEPRIO), leaving idle resets them to 1024, whatever they were before.
      case "cpu.idle" -> {
        long v = Numbers.kstrtoll(value);
        if (v != 0 && v != 1) {
          throw KernelError.of(Errno.EINVAL);
        }
        if (v != stored(node, name, 0)) {
          node.put("cpu.shares", v == 1 ? "3\n" : "1024\n");
        }
        node.put(name, v + "\n");
      }
      case "cpu.rt_period_us" -> {
        long v = Numbers.kstrtoull(value);
        if (v == 0) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put(name, v + "\n");
      }
      default -> node.put(name, Numbers.kstrtoll(value) + "\n");
    }
  }

  private static long stored(Node node, String file, long initial) {
    String v = node.value(file);
    return v == null ? initial : Numbers.stored(v);
  }
}
