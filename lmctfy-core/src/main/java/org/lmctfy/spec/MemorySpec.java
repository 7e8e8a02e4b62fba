package org.lmctfy.spec;

import static org.lmctfy.spec.Checks.inRange;
import static org.lmctfy.spec.Checks.unlimitedOrAtLeast;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * Memory isolation of a container: lmctfy's {@code memory} section. Byte values are {@code -1} for
 * "unlimited" or else {@code >= 0} (a spec's text may give them as sizes such as {@code 256M}: see
 * {@link ContainerSpec#parse}); an absent field leaves the kernel's value alone.
 *
 * <pre>{@code
 * MemorySpec memory = MemorySpec.builder().limit(256L << 20).swapLimit(512L << 20).build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param limit {@code limit}: hard limit in bytes ({@code memory.limit_in_bytes}, {@code
 *     memory.max})
 * @param swapLimit {@code swap_limit}: limit of memory <em>plus</em> swap in bytes, as lmctfy and
 *     {@code memory.memsw.limit_in_bytes}; when both are finite it must be {@code >= limit}
 * @param reservation {@code reservation}: soft limit in bytes ({@code memory.soft_limit_in_bytes},
 *     {@code memory.low})
 * @param high {@code high}: throttling threshold in bytes ({@code memory.high}, v2 only)
 * @param oomKillDisable {@code oom_kill_disable}: pause instead of OOM-killing (v1 only)
 * @param oomGroup {@code oom_group}: OOM-kill the whole cgroup together (v2 only)
 * @param swappiness {@code swappiness}: 0..100 (v1 only)
 * @param min {@code min}: memory the kernel never reclaims from the container, in bytes ({@code
 *     memory.min}, v2 only)
 * @param zswapLimit {@code zswap_limit}: most bytes of the container's memory held compressed in
 *     zswap ({@code memory.zswap.max}, v2 only; needs a kernel with zswap)
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemorySpec(
    @JsonProperty("limit") @Inputs.ByteSize @Nullable Long limit,
    @JsonProperty("swap_limit") @Inputs.ByteSize @Nullable Long swapLimit,
    @JsonProperty("reservation") @Inputs.ByteSize @Nullable Long reservation,
    @JsonProperty("high") @Inputs.ByteSize @Nullable Long high,
    @JsonProperty("oom_kill_disable") @Nullable Boolean oomKillDisable,
    @JsonProperty("oom_group") @Nullable Boolean oomGroup,
    @JsonProperty("swappiness") @Nullable Integer swappiness,
    @JsonProperty("min") @Inputs.ByteSize @Nullable Long min,
    @JsonProperty("zswap_limit") @Inputs.ByteSize @Nullable Long zswapLimit) {

  /** Validates every field and that {@code swap_limit >= limit}. */
  @JsonCreator
  public MemorySpec {
    unlimitedOrAtLeast(min, 0, "memory.min");
    unlimitedOrAtLeast(zswapLimit, 0, "memory.zswap_limit");
    unlimitedOrAtLeast(limit, 0, "memory.limit");
    unlimitedOrAtLeast(swapLimit, 0, "memory.swap_limit");
    unlimitedOrAtLeast(reservation, 0, "memory.reservation");
    unlimitedOrAtLeast(high, 0, "memory.high");
    inRange(swappiness, 0, 100, "memory.swappiness");
    if (swapLimit != null
        && swapLimit != -1
        && limit != null
        && (limit == -1 || swapLimit < limit)) {
      throw Checks.invalid(
          "memory.swap_limit",
          swapLimit,
          "must be >= memory.limit (" + limit + ") or -1: swap_limit is memory plus swap");
    }
  }

  /** A spec with only a hard limit: {@code memory { limit: bytes }}. */
  public static MemorySpec ofLimit(long bytes) {
    return builder().limit(bytes).build();
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder()
        .limit(limit)
        .swapLimit(swapLimit)
        .reservation(reservation)
        .high(high)
        .oomKillDisable(oomKillDisable)
        .oomGroup(oomGroup)
        .swappiness(swappiness)
        .min(min)
        .zswapLimit(zswapLimit);
  }

  /**
   * Builds a {@link MemorySpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable Long limit;
    private @Nullable Long swapLimit;
    private @Nullable Long reservation;
    private @Nullable Long high;
    private @Nullable Boolean oomKillDisable;
    private @Nullable Boolean oomGroup;
    private @Nullable Integer swappiness;
    private @Nullable Long min;
    private @Nullable Long zswapLimit;

    private Builder() {}

    /** Sets {@code limit}. */
    public Builder limit(@Nullable Long limit) {
      this.limit = limit;
      return this;
    }

    /** Sets {@code swap_limit}. */
    public Builder swapLimit(@Nullable Long swapLimit) {
      this.swapLimit = swapLimit;
      return this;
    }

    /** Sets {@code reservation}. */
    public Builder reservation(@Nullable Long reservation) {
      this.reservation = reservation;
      return this;
    }

    /** Sets {@code high}. */
    public Builder high(@Nullable Long high) {
      this.high = high;
      return this;
    }

    /** Sets {@code oom_kill_disable}. */
    public Builder oomKillDisable(@Nullable Boolean oomKillDisable) {
      this.oomKillDisable = oomKillDisable;
      return this;
    }

    /** Sets {@code oom_group}. */
    public Builder oomGroup(@Nullable Boolean oomGroup) {
      this.oomGroup = oomGroup;
      return this;
    }

    /** Sets {@code swappiness}. */
    public Builder swappiness(@Nullable Integer swappiness) {
      this.swappiness = swappiness;
      return this;
    }

    /** Sets {@code min}. */
    public Builder min(@Nullable Long min) {
      this.min = min;
      return this;
    }

    /** Sets {@code zswap_limit}. */
    public Builder zswapLimit(@Nullable Long zswapLimit) {
      this.zswapLimit = zswapLimit;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public MemorySpec build() {
      return new MemorySpec(
          limit,
          swapLimit,
          reservation,
          high,
          oomKillDisable,
          oomGroup,
          swappiness,
          min,
          zswapLimit);
    }
  }
}
