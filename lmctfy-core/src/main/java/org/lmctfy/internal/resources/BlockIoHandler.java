package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.BlockIoSpec;
import org.lmctfy.spec.BlockIoSpec.DeviceLimit;
import org.lmctfy.spec.BlockIoSpec.DeviceWeight;
import org.lmctfy.spec.BlockIoSpec.LatencyTarget;
import org.lmctfy.spec.ContainerSpec;

/**
 * blockio: {@code weight} (v1 units, 10..1000) and per-device bps and iops limits.
 *
 * <p>v1: {@code blkio.weight}, or {@code blkio.bfq.weight} where the BFQ scheduler provides it;
 * limits in {@code blkio.throttle.{read,write}_{bps,iops}_device} as {@code "major:minor value"}, 0
 * removing one. v2: where the BFQ scheduler is loaded, {@code io.bfq.weight = "default " + weight}
 * (BFQ takes v1's units; looked for in the container, or on create in its parent), else {@code
 * io.weight = "default " + (1 + (weight - 10) * 9999 / 990)}, read back as {@code 10 + ceil((w - 1)
 * * 990 / 9999)}, as runc and crun do; {@code device_weights} as {@code "major:minor N"} lines of
 * the same file ({@code "major:minor default"} removes one); limits in {@code io.max} as {@code
 * "major:minor rbps=.. wbps=.. riops=.. wiops=.."} ({@code max} unlimited); {@code latency_targets}
 * in {@code io.latency} as {@code "major:minor target=µs"} ({@code target=max} removes one). -1 in
 * the spec is unlimited. A given list replaces the container's whole list (devices left out lose
 * their setting); REPLACE clears what is not given.
 */
final class BlockIoHandler implements ResourceHandler {
  private static final String[][] V1_FILES = {
    {"read_bps", "blkio.throttle.read_bps_device"},
    {"write_bps", "blkio.throttle.write_bps_device"},
    {"read_iops", "blkio.throttle.read_iops_device"},
    {"write_iops", "blkio.throttle.write_iops_device"}
  };
  private static final String[] V2_KEYS = {"rbps", "wbps", "riops", "wiops"};

  private static final List<Field> FIELDS =
      List.of(
          new Field(
              "blockio.weight",
              "io",
              List.of("blkio.weight", "blkio.bfq.weight"),
              List.of("io.weight", "io.bfq.weight"),
              s -> blockio(s, BlockIoSpec::weight)),
          new Field(
              "blockio.device_limits",
              "io",
              List.of(
                  "blkio.throttle.read_bps_device",
                  "blkio.throttle.write_bps_device",
                  "blkio.throttle.read_iops_device",
                  "blkio.throttle.write_iops_device"),
              List.of("io.max"),
              s -> blockio(s, BlockIoSpec::deviceLimits)),
          new Field(
              "blockio.device_weights",
              "io",
              List.of(),
              List.of("io.weight"),
              s -> blockio(s, BlockIoSpec::deviceWeights)),
          new Field(
              "blockio.latency_targets",
              "io",
              List.of(),
              List.of("io.latency"),
              s -> blockio(s, BlockIoSpec::latencyTargets)));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  private static Object blockio(ContainerSpec s, Function<BlockIoSpec, Object> field) {
    return s.blockio() == null ? null : field.apply(s.blockio());
  }

  @Override
  public void plan(ContainerSpec spec, Mode mode, ContainerView view, Planning planning) {
    BlockIoSpec io = spec.blockio();
    List<FileWrite> out = planning.writes;
    boolean replace = mode == Mode.REPLACE && (view.has("blkio") || view.has("io"));
    if (io == null && !replace) {
      return;
    }
    Hierarchy h = view.find("io").orElseGet(() -> view.require("blkio", "blockio"));
    Integer weight = io == null ? null : io.weight();
    if (!ContainerView.isV2(h) && io != null && !io.deviceWeights().isEmpty()) {
      throw ContainerView.notOn(
          h, "blockio.device_weights", "lmctfy sets per-device weights on v2 only");
    }
    if (!ContainerView.isV2(h) && io != null && !io.latencyTargets().isEmpty()) {
      throw ContainerView.notOn(h, "blockio.latency_targets", "v1 has no io.latency");
    }
    if (ContainerView.isV2(h)) {
      planV2Weights(io, mode, view, h, out);
    } else if (weight != null || replace) {
      String file = v1WeightFile(view, h, mode);
      if (weight != null && !hasV1Weight(view, h, mode, file)) {
        throw ContainerView.notOn(
            h,
            "blockio.weight",
            "this kernel has neither blkio.weight (CFQ) nor blkio.bfq.weight "
                + "(the BFQ scheduler, a module: on no block device here), so there is no weight to set");
      }
      if (weight != null || view.selfHas(h, file)) {
        out.add(
            new FileWrite(
                h,
                file,
                Integer.toString(weight == null ? defaultWeight(file) : weight),
                "blockio.weight"));
      }
    }
    if (ContainerView.isV2(h)) {
      planLatency(io, mode, view, h, out);
    }
    List<DeviceLimit> limits = io == null ? List.of() : io.deviceLimits();
    if (mode != Mode.CREATE) {
      limits = withRemovals(limits, readLimits(view, h));
    }
    for (DeviceLimit d : limits) {
      if (ContainerView.isV2(h)) {
        StringBuilder sb = new StringBuilder(d.device());
        Long[] values = {d.readBps(), d.writeBps(), d.readIops(), d.writeIops()};
        for (int i = 0; i < 4; i++) {
          if (values[i] != null) {
            sb.append(' ')
                .append(V2_KEYS[i])
                .append('=')
                .append(values[i] < 0 ? "max" : values[i].toString());
          }
        }
        out.add(new FileWrite(h, "io.max", sb.toString(), "blockio.device_limits"));
      } else {
        Long[] values = {d.readBps(), d.writeBps(), d.readIops(), d.writeIops()};
        for (int i = 0; i < 4; i++) {
          if (values[i] != null) {
            out.add(
                new FileWrite(
                    h,
                    V1_FILES[i][1],
                    d.device() + " " + (values[i] < 0 ? 0 : values[i]),
                    "blockio.device_limits"));
          }
        }
      }
    }
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    out.blockio(read(view, fields));
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.blockio(anyOf(given) ? normalise(spec.blockio(), view) : null);
  }

  /**
   * The "default N" lines of the v2 weight files {@code planned} writes, as they are: a v1-unit
   * weight read from them does not always map back to the same line (the kernel's default 100 is no
   * v1 weight's image).
   */
  @Override
  public void keepAsRead(List<FileWrite> planned, ContainerView view, List<FileWrite> out) {
    for (FileWrite w : planned) {
      if (ContainerView.isV2(w.hierarchy())
          && w.value().startsWith("default ")
          && (w.file().equals("io.weight") || w.file().equals("io.bfq.weight"))) {
        String line = view.readSelf(w.hierarchy(), w.file()).split("\n")[0].strip();
        out.add(new FileWrite(w.hierarchy(), w.file(), line, w.field()));
      }
    }
  }

  private static void planV2Weights(
      BlockIoSpec io, Mode mode, ContainerView view, Hierarchy h, List<FileWrite> out) {
    boolean replace = mode == Mode.REPLACE; // h is there: a REPLACE resets its files
    String file = bfq(view, h, mode) ? "io.bfq.weight" : "io.weight";
    Integer weight = io == null ? null : io.weight();
    if (weight != null
        || replace) { // REPLACE without a weight: the kernel's default, 100 in both files
      int w = weight == null ? 100 : file.equals("io.weight") ? v2Weight(weight) : weight;
      out.add(new FileWrite(h, file, "default " + w, "blockio.weight"));
    }
    List<DeviceWeight> wanted = io == null ? List.of() : io.deviceWeights();
    if (file.equals("io.weight")) {
      for (DeviceWeight d : wanted) {
        requireIocost(view, h, d.device());
      }
    }
    if (!wanted.isEmpty() || replace) {
      if (mode != Mode.CREATE) {
        for (String[] now : deviceLines(view, h, file)) {
          if (wanted.stream().noneMatch(d -> d.device().equals(now[0]))) {
            out.add(new FileWrite(h, file, now[0] + " default", "blockio.device_weights"));
          }
        }
      }
      for (DeviceWeight d : wanted) {
        out.add(
            new FileWrite(
                h,
                file,
                d.device() + " " + (file.equals("io.weight") ? v2Weight(d.weight()) : d.weight()),
                "blockio.device_weights"));
      }
    }
  }

  /**
   * Per-device lines of io.weight are the iocost controller's, which the kernel refuses
   * (EOPNOTSUPP) on a device where the machine's root cgroup has not enabled it in io.cost.qos.
   */
  private static void requireIocost(ContainerView view, Hierarchy h, String device) {
    String qos = view.readRoot(h, "io.cost.qos");
    boolean enabled =
        qos != null
            && Arrays.stream(qos.split("\n"))
                .anyMatch(line -> line.startsWith(device + " ") && line.contains(" enable=1"));
    if (!enabled) {
      throw ContainerView.notOn(
          h,
          "blockio.device_weights",
          "a per-device io.weight needs the iocost controller on device "
              + device
              + " (\""
              + device
              + " enable=1\" in the root cgroup's io.cost.qos, a machine-wide setting lmctfy "
              + "leaves to the administrator), or the BFQ scheduler (io.bfq.weight)"
              + (qos == null ? "; this kernel has no io.cost.qos" : ""));
    }
  }

  private static void planLatency(
      BlockIoSpec io, Mode mode, ContainerView view, Hierarchy h, List<FileWrite> out) {
    boolean replace = mode == Mode.REPLACE; // h is there: a REPLACE resets its files
    List<LatencyTarget> wanted = io == null ? List.of() : io.latencyTargets();
    if (wanted.isEmpty() && !(replace && view.selfHas(h, "io.latency"))) {
      return;
    }
    boolean lacks =
        mode == Mode.CREATE
            ? view.lacks(h, "io.max", "io.latency")
            : !view.selfHas(h, "io.latency");
    if (lacks) {
      throw ContainerView.notOn(
          h,
          "blockio.latency_targets",
          "this kernel has no io.latency (built without " + "CONFIG_BLK_CGROUP_IOLATENCY)");
    }
    if (mode != Mode.CREATE) {
      for (String[] now : deviceLines(view, h, "io.latency")) {
        if (wanted.stream().noneMatch(d -> d.device().equals(now[0]))) {
          out.add(
              new FileWrite(h, "io.latency", now[0] + " target=max", "blockio.latency_targets"));
        }
      }
    }
    for (LatencyTarget t : wanted) {
      out.add(
          new FileWrite(
              h,
              "io.latency",
              t.device() + " target=" + t.targetUs(),
              "blockio.latency_targets",
              "built without CONFIG_BLK_CGROUP_IOLATENCY"));
    }
  }

  /**
   * Whether the BFQ scheduler's io.bfq.weight is there (in the container, or on create its parent).
   */
  private static boolean bfq(ContainerView view, Hierarchy h, Mode mode) {
    return mode == Mode.CREATE
        ? view.nearestHas(h, "io.weight", "io.bfq.weight")
        : view.selfHas(h, "io.bfq.weight");
  }

  /** The "major:minor value" lines of a per-device file, split in two; "default" lines left out. */
  private static List<String[]> deviceLines(ContainerView view, Hierarchy h, String file) {
    List<String[]> out = new ArrayList<>();
    if (!view.selfHas(h, file)) {
      return out;
    }
    for (String line : view.readSelf(h, file).split("\n")) {
      String[] parts = line.strip().split("\\s+", 2);
      if (parts.length == 2 && parts[0].matches("[0-9]+:[0-9]+")) {
        out.add(parts);
      }
    }
    return out;
  }

  /**
   * REPLACE and DIFF of the whole list: devices limited now but not in the spec are unlimited
   * again.
   */
  private static List<DeviceLimit> withRemovals(
      List<DeviceLimit> wanted, List<DeviceLimit> current) {
    List<DeviceLimit> out = new ArrayList<>(wanted);
    for (DeviceLimit c : current) {
      if (wanted.stream().noneMatch(w -> w.device().equals(c.device()))) {
        out.add(new DeviceLimit(c.major(), c.minor(), -1L, -1L, -1L, -1L));
      }
    }
    return out;
  }

  /**
   * blkio.weight (CFQ) where the kernel has it, else BFQ's blkio.bfq.weight (only below the root).
   */
  /**
   * Whether the weight file is there (on create: CFQ's in the parent, or BFQ's files, which the
   * root lacks).
   */
  private static boolean hasV1Weight(ContainerView view, Hierarchy h, Mode mode, String file) {
    if (mode != Mode.CREATE) {
      return view.selfHas(h, file);
    }
    return view.parentHas(h, file)
        || file.equals("blkio.bfq.weight") && view.parentHas(h, "blkio.bfq.io_service_bytes");
  }

  private static String v1WeightFile(ContainerView view, Hierarchy h, Mode mode) {
    boolean cfq =
        mode == Mode.CREATE ? view.parentHas(h, "blkio.weight") : view.selfHas(h, "blkio.weight");
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

  static BlockIoSpec read(ContainerView view, Set<String> fields) {
    if (fields.stream().noneMatch(f -> f.startsWith("blockio."))) {
      return null;
    }
    Hierarchy h = view.find("io").orElseGet(() -> view.require("blkio", "blockio"));
    Integer weight = null;
    String file = ContainerView.isV2(h) && bfq(view, h, Mode.DIFF) ? "io.bfq.weight" : "io.weight";
    if (fields.contains("blockio.weight")) {
      if (ContainerView.isV2(h)) {
        String line = view.readSelf(h, file).split("\n")[0];
        int w = (int) Units.number(line.substring(line.indexOf(' ') + 1), file);
        weight = file.equals("io.weight") ? weightOfV2(w) : w;
      } else {
        String v1File = v1WeightFile(view, h, Mode.DIFF);
        weight =
            (int)
                Units.number(
                    view.readSelf(h, v1File).split("\n")[0].replaceAll("^default ", ""), v1File);
      }
    }
    List<DeviceWeight> weights = new ArrayList<>();
    if (fields.contains("blockio.device_weights")) {
      for (String[] d : deviceLines(view, h, file)) {
        int w = (int) Units.number(d[1], file);
        String[] mm = d[0].split(":");
        weights.add(
            new DeviceWeight(
                Long.parseLong(mm[0]),
                Long.parseLong(mm[1]),
                file.equals("io.weight") ? weightOfV2(w) : w));
      }
    }
    List<LatencyTarget> targets = new ArrayList<>();
    if (fields.contains("blockio.latency_targets")) {
      for (String[] d : deviceLines(view, h, "io.latency")) {
        String[] mm = d[0].split(":");
        targets.add(
            new LatencyTarget(
                Long.parseLong(mm[0]),
                Long.parseLong(mm[1]),
                Units.number(d[1].replaceFirst("^target=", ""), "io.latency")));
      }
    }
    return new BlockIoSpec(
        weight,
        fields.contains("blockio.device_limits") ? readLimits(view, h) : List.of(),
        weights,
        targets);
  }

  /** The device limits the container has, one entry per device, unlimited values as -1. */
  private static List<DeviceLimit> readLimits(ContainerView view, Hierarchy h) {
    Map<String, Long[]> byDevice = new LinkedHashMap<>();
    if (ContainerView.isV2(h)) {
      for (String line : view.readSelf(h, "io.max").split("\n")) {
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
        for (String line : view.readSelf(h, V1_FILES[i][1]).split("\n")) {
          String[] parts = line.strip().split("\\s+");
          if (parts.length == 2) {
            byDevice.computeIfAbsent(parts[0], k -> new Long[4])[i] = Long.parseLong(parts[1]);
          }
        }
      }
    }
    List<DeviceLimit> out = new ArrayList<>();
    byDevice.forEach(
        (dev, v) -> {
          String[] mm = dev.split(":");
          out.add(
              new DeviceLimit(
                  Long.parseLong(mm[0]), Long.parseLong(mm[1]), v[0], v[1], v[2], v[3]));
        });
    return out;
  }

  static BlockIoSpec normalise(BlockIoSpec io, ContainerView view) {
    boolean v2 = view.find("io").isPresent();
    Integer weight =
        io.weight() == null ? null : v2 ? weightOfV2(v2Weight(io.weight())) : io.weight();
    List<DeviceLimit> limits = new ArrayList<>();
    for (DeviceLimit d : io.deviceLimits()) {
      if (v2) {
        limits.add(
            new DeviceLimit(
                d.major(),
                d.minor(),
                orMax(d.readBps()),
                orMax(d.writeBps()),
                orMax(d.readIops()),
                orMax(d.writeIops())));
      } else if (!(isNone(d.readBps())
          && isNone(d.writeBps())
          && isNone(d.readIops())
          && isNone(d.writeIops()))) {
        limits.add(
            new DeviceLimit(
                d.major(),
                d.minor(),
                v1(d.readBps()),
                v1(d.writeBps()),
                v1(d.readIops()),
                v1(d.writeIops())));
      }
    }
    List<DeviceWeight> weights =
        io.deviceWeights().stream()
            .map(
                d ->
                    new DeviceWeight(
                        d.major(), d.minor(), v2 ? weightOfV2(v2Weight(d.weight())) : d.weight()))
            .toList();
    return new BlockIoSpec(weight, limits, weights, io.latencyTargets());
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
