package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.BlockIoSpec;
import org.lmctfy.spec.BlockIoSpec.DeviceLimit;

/**
 * blockio: {@code weight} (v1 units, 10..1000) and per-device bps and iops limits.
 *
 * <p>v1: {@code blkio.weight}, or {@code blkio.bfq.weight} where the BFQ scheduler provides it;
 * limits in {@code blkio.throttle.{read,write}_{bps,iops}_device} as {@code "major:minor value"}, 0
 * removing one. v2: {@code io.weight = "default " + (1 + (weight - 10) * 9999 / 990)}, read back as
 * {@code 10 + ceil((w - 1) * 990 / 9999)}; limits in {@code io.max} as {@code "major:minor rbps=.. wbps=..
 * riops=.. wiops=.."} ({@code max} unlimited). -1 in the spec is unlimited.
 */
final class BlockIoHandler {
  private static final String[][] V1_FILES = {{"read_bps", "blkio.throttle.read_bps_device"},
      {"write_bps", "blkio.throttle.write_bps_device"}, {"read_iops", "blkio.throttle.read_iops_device"},
      {"write_iops", "blkio.throttle.write_iops_device"}};
  private static final String[] V2_KEYS = {"rbps", "wbps", "riops", "wiops"};

  private BlockIoHandler() {}

  static void plan(BlockIoSpec io, Mode mode, Host host, List<FileWrite> out) {
    boolean replace = mode == Mode.REPLACE && (host.find("blkio").isPresent() || host.find("io").isPresent());
    if (io == null && !replace) {
      return;
    }
    Hierarchy h = host.find("io").orElseGet(() -> host.require("blkio", "blockio"));
    Integer weight = io == null ? null : io.weight();
    if (weight != null || replace) {
      if (Host.isV2(h)) {
        out.add(new FileWrite(h, "io.weight", "default " + (weight == null ? 100 : v2Weight(weight)), "blockio.weight"));
      } else {
        String file = v1WeightFile(host, h, mode);
        if (weight != null || host.selfHas(h, file)) {
          out.add(new FileWrite(h, file, Integer.toString(weight == null ? defaultWeight(file) : weight),
              "blockio.weight"));
        }
      }
    }
    List<DeviceLimit> limits = io == null ? List.of() : io.deviceLimits();
    if (mode != Mode.CREATE) {
      limits = withRemovals(limits, readLimits(host, h));
    }
    for (DeviceLimit d : limits) {
      if (Host.isV2(h)) {
        StringBuilder sb = new StringBuilder(d.device());
        Long[] values = {d.readBps(), d.writeBps(), d.readIops(), d.writeIops()};
        for (int i = 0; i < 4; i++) {
          if (values[i] != null) {
            sb.append(' ').append(V2_KEYS[i]).append('=').append(values[i] < 0 ? "max" : values[i].toString());
          }
        }
        out.add(new FileWrite(h, "io.max", sb.toString(), "blockio.device_limits"));
      } else {
        Long[] values = {d.readBps(), d.writeBps(), d.readIops(), d.writeIops()};
        for (int i = 0; i < 4; i++) {
          if (values[i] != null) {
            out.add(new FileWrite(h, V1_FILES[i][1], d.device() + " " + (values[i] < 0 ? 0 : values[i]),
                "blockio.device_limits"));
          }
        }
      }
    }
  }

  /** REPLACE and DIFF of the whole list: devices limited now but not in the spec are unlimited again. */
  private static List<DeviceLimit> withRemovals(List<DeviceLimit> wanted, List<DeviceLimit> current) {
    List<DeviceLimit> out = new ArrayList<>(wanted);
    for (DeviceLimit c : current) {
      if (wanted.stream().noneMatch(w -> w.device().equals(c.device()))) {
        out.add(new DeviceLimit(c.major(), c.minor(), -1L, -1L, -1L, -1L));
      }
    }
    return out;
  }

  /** blkio.weight (CFQ) where the kernel has it, else BFQ's blkio.bfq.weight (only below the root). */
  private static String v1WeightFile(Host host, Hierarchy h, Mode mode) {
    boolean cfq = mode == Mode.CREATE ? host.parentHas(h, "blkio.weight") : host.selfHas(h, "blkio.weight");
    return cfq ? "blkio.weight" : "blkio.bfq.weight";
  }

  static int v2Weight(int weight) {
    return 1 + (weight - 10) * 9999 / 990;
  }

  static int weightOfV2(int w) {
    return 10 + ((w - 1) * 990 + 9998) / 9999;
  }

  private static int defaultWeight(String file) {
    return file.equals("blkio.weight") ? 500 : 100;
  }

  static BlockIoSpec read(Host host, Set<String> fields) {
    if (!fields.contains("blockio.weight") && !fields.contains("blockio.device_limits")) {
      return null;
    }
    Hierarchy h = host.find("io").orElseGet(() -> host.require("blkio", "blockio"));
    Integer weight = null;
    if (fields.contains("blockio.weight")) {
      if (Host.isV2(h)) {
        String line = host.readSelf(h, "io.weight").split("\n")[0];
        weight = weightOfV2((int) Kernel.number(line.substring(line.indexOf(' ') + 1), "io.weight"));
      } else {
        String file = v1WeightFile(host, h, Mode.DIFF);
        weight = (int) Kernel.number(host.readSelf(h, file).split("\n")[0].replaceAll("^default ", ""), file);
      }
    }
    return new BlockIoSpec(weight, fields.contains("blockio.device_limits") ? readLimits(host, h) : List.of());
  }

  /** The device limits the container has, one entry per device, unlimited values as -1. */
  private static List<DeviceLimit> readLimits(Host host, Hierarchy h) {
    Map<String, Long[]> byDevice = new LinkedHashMap<>();
    if (Host.isV2(h)) {
      for (String line : host.readSelf(h, "io.max").split("\n")) {
        String[] parts = line.strip().split("\\s+");
        if (parts[0].isEmpty()) {
          continue;
        }
        Long[] v = byDevice.computeIfAbsent(parts[0], k -> new Long[4]);
        for (int i = 1; i < parts.length; i++) {
          String[] kv = parts[i].split("=");
          for (int k = 0; k < 4; k++) {
            if (kv[0].equals(V2_KEYS[k])) {
              v[k] = kv[1].equals("max") ? -1L : Long.parseLong(kv[1]);
            }
          }
        }
      }
    } else {
      for (int i = 0; i < 4; i++) {
        for (String line : host.readSelf(h, V1_FILES[i][1]).split("\n")) {
          String[] parts = line.strip().split("\\s+");
          if (parts.length == 2) {
            byDevice.computeIfAbsent(parts[0], k -> new Long[4])[i] = Long.parseLong(parts[1]);
          }
        }
      }
    }
    List<DeviceLimit> out = new ArrayList<>();
    byDevice.forEach((dev, v) -> {
      String[] mm = dev.split(":");
      out.add(new DeviceLimit(Long.parseLong(mm[0]), Long.parseLong(mm[1]), v[0], v[1], v[2], v[3]));
    });
    return out;
  }

  static BlockIoSpec normalise(BlockIoSpec io, Host host) {
    boolean v2 = host.find("io").isPresent();
    Integer weight = io.weight() == null ? null : v2 ? weightOfV2(v2Weight(io.weight())) : io.weight();
    List<DeviceLimit> limits = new ArrayList<>();
    for (DeviceLimit d : io.deviceLimits()) {
      if (v2) {
        limits.add(new DeviceLimit(d.major(), d.minor(), orMax(d.readBps()), orMax(d.writeBps()), orMax(d.readIops()),
            orMax(d.writeIops())));
      } else if (!(isNone(d.readBps()) && isNone(d.writeBps()) && isNone(d.readIops()) && isNone(d.writeIops()))) {
        limits.add(new DeviceLimit(d.major(), d.minor(), v1(d.readBps()), v1(d.writeBps()), v1(d.readIops()),
            v1(d.writeIops())));
      }
    }
    return new BlockIoSpec(weight, limits);
  }

  private static Long orMax(Long v) {
    return v == null || v < 0 ? -1L : v;
  }

  private static boolean isNone(Long v) {
    return v == null || v < 0;
  }

  private static Long v1(Long v) {
    return v == null || v < 0 ? null : v;
  }
}
