package org.lmctfy.spec;

import static org.lmctfy.spec.Checks.inRange;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Block I/O isolation: lmctfy's {@code blockio} section (a proportional weight and per-device
 * throttles).
 *
 * <pre>{@code
 * BlockIoSpec io = BlockIoSpec.builder()
 *     .weight(500)
 *     .deviceLimits(List.of(new BlockIoSpec.DeviceLimit(8, 0, 10_485_760L, null, null, null)))
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param weight {@code weight}: proportional share in v1 blkio units, 10..1000 ({@code
 *     blkio.weight}; mapped onto {@code io.weight} on v2)
 * @param deviceLimits {@code device_limits}: throttles, at most one per device; never null
 * @param deviceWeights {@code device_weights}: per-device weights in the same units as {@code
 *     weight}, at most one per device ({@code io.weight} "MAJ:MIN N" lines, v2 only); never null
 * @param latencyTargets {@code latency_targets}: per-device I/O latency targets ({@code
 *     io.latency}, v2 only), at most one per device; never null
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BlockIoSpec(
    @JsonProperty("weight") @Nullable Integer weight,
    @JsonProperty("device_limits") @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<DeviceLimit> deviceLimits,
    @JsonProperty("device_weights") @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<DeviceWeight> deviceWeights,
    @JsonProperty("latency_targets") @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<LatencyTarget> latencyTargets) {

  /** Validates the weight and that no device is given twice in a list; copies the lists. */
  @JsonCreator
  public BlockIoSpec {
    inRange(weight, 10, 1000, "blockio.weight");
    deviceLimits = deviceLimits == null ? List.of() : List.copyOf(deviceLimits);
    deviceWeights = deviceWeights == null ? List.of() : List.copyOf(deviceWeights);
    latencyTargets = latencyTargets == null ? List.of() : List.copyOf(latencyTargets);
    unique(deviceLimits.stream().map(DeviceLimit::device).toList(), "blockio.device_limits");
    unique(deviceWeights.stream().map(DeviceWeight::device).toList(), "blockio.device_weights");
    unique(latencyTargets.stream().map(LatencyTarget::device).toList(), "blockio.latency_targets");
  }

  private static void unique(List<String> devices, String field) {
    Set<String> seen = new HashSet<>();
    for (String device : devices) {
      if (!seen.add(device)) {
        throw Checks.invalid(field, device, "device given twice");
      }
    }
  }

  /**
   * The weight of one block device, overriding {@code weight} for it.
   *
   * @param major {@code major}: the device's major number, {@code >= 0}
   * @param minor {@code minor}: the device's minor number, {@code >= 0}
   * @param weight {@code weight}: 10..1000, mapped as {@code blockio.weight} is
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record DeviceWeight(
      @JsonProperty("major") @JsonSetter(nulls = Nulls.FAIL) long major,
      @JsonProperty("minor") @JsonSetter(nulls = Nulls.FAIL) long minor,
      @JsonProperty("weight") @JsonSetter(nulls = Nulls.FAIL) int weight) {

    /** Validates the device numbers and the weight. */
    public DeviceWeight {
      Checks.atLeast(major, 0, "blockio.device_weights[].major");
      Checks.atLeast(minor, 0, "blockio.device_weights[].minor");
      inRange(weight, 10, 1000, "blockio.device_weights[].weight");
    }

    /**
     * The device as the kernel writes it: {@code "8:0"}.
     *
     * @return {@code "major:minor"}
     */
    public String device() {
      return major + ":" + minor;
    }
  }

  /**
   * The I/O latency target of one block device: when the container's I/O on it is slower than this,
   * the kernel throttles its siblings with looser targets.
   *
   * @param major {@code major}: the device's major number, {@code >= 0}
   * @param minor {@code minor}: the device's minor number, {@code >= 0}
   * @param targetUs {@code target_us}: the target in microseconds, {@code > 0}
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record LatencyTarget(
      @JsonProperty("major") @JsonSetter(nulls = Nulls.FAIL) long major,
      @JsonProperty("minor") @JsonSetter(nulls = Nulls.FAIL) long minor,
      @JsonProperty("target_us") @JsonSetter(nulls = Nulls.FAIL) long targetUs) {

    /** Validates the device numbers and the target. */
    public LatencyTarget {
      Checks.atLeast(major, 0, "blockio.latency_targets[].major");
      Checks.atLeast(minor, 0, "blockio.latency_targets[].minor");
      Checks.atLeast(targetUs, 1, "blockio.latency_targets[].target_us");
    }

    /**
     * The device as the kernel writes it: {@code "8:0"}.
     *
     * @return {@code "major:minor"}
     */
    public String device() {
      return major + ":" + minor;
    }
  }

  /**
   * Throttles of one block device ({@code blkio.throttle.*_device}, {@code io.max}). Each rate is
   * {@code > 0}, or {@code -1} for unlimited; at least one must be given.
   *
   * @param major {@code major}: the device's major number, {@code >= 0}
   * @param minor {@code minor}: the device's minor number, {@code >= 0}
   * @param readBps {@code read_bps}: read bytes per second
   * @param writeBps {@code write_bps}: written bytes per second
   * @param readIops {@code read_iops}: read operations per second
   * @param writeIops {@code write_iops}: write operations per second
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record DeviceLimit(
      @JsonProperty("major") @JsonSetter(nulls = Nulls.FAIL) long major,
      @JsonProperty("minor") @JsonSetter(nulls = Nulls.FAIL) long minor,
      @JsonProperty("read_bps") @Inputs.ByteSize @Nullable Long readBps,
      @JsonProperty("write_bps") @Inputs.ByteSize @Nullable Long writeBps,
      @JsonProperty("read_iops") @Nullable Long readIops,
      @JsonProperty("write_iops") @Nullable Long writeIops) {

    private static final String FIELD = "blockio.device_limits[].";

    /** Validates the device numbers and rates. */
    public DeviceLimit {
      Checks.atLeast(major, 0, FIELD + "major");
      Checks.atLeast(minor, 0, FIELD + "minor");
      rate(readBps, "read_bps");
      rate(writeBps, "write_bps");
      rate(readIops, "read_iops");
      rate(writeIops, "write_iops");
      if (readBps == null && writeBps == null && readIops == null && writeIops == null) {
        throw Checks.problem(
            FIELD.substring(0, FIELD.length() - 1),
            "device "
                + major
                + ":"
                + minor
                + " needs at least one of read_bps, write_bps, read_iops, write_iops");
      }
    }

    private static void rate(Long value, String name) {
      if (value != null && value != -1 && value <= 0) {
        throw Checks.invalid(FIELD + name, value, "must be > 0, or -1 for unlimited");
      }
    }

    /** The device as the kernel writes it: {@code "8:0"}. */
    public String device() {
      return major + ":" + minor;
    }
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder()
        .weight(weight)
        .deviceLimits(deviceLimits)
        .deviceWeights(deviceWeights)
        .latencyTargets(latencyTargets);
  }

  /**
   * Builds a {@link BlockIoSpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable Integer weight;
    private List<DeviceLimit> deviceLimits = List.of();
    private List<DeviceWeight> deviceWeights = List.of();
    private List<LatencyTarget> latencyTargets = List.of();

    private Builder() {}

    /** Sets {@code weight}. */
    public Builder weight(@Nullable Integer weight) {
      this.weight = weight;
      return this;
    }

    /** Sets {@code device_limits}. */
    public Builder deviceLimits(List<DeviceLimit> deviceLimits) {
      this.deviceLimits = deviceLimits;
      return this;
    }

    /** Sets {@code device_weights}. */
    public Builder deviceWeights(List<DeviceWeight> deviceWeights) {
      this.deviceWeights = deviceWeights;
      return this;
    }

    /** Sets {@code latency_targets}. */
    public Builder latencyTargets(List<LatencyTarget> latencyTargets) {
      this.latencyTargets = latencyTargets;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public BlockIoSpec build() {
      return new BlockIoSpec(weight, deviceLimits, deviceWeights, latencyTargets);
    }
  }
}
