package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * RDMA isolation ({@code rdma} controller), new in this port: per RDMA device, the most HCA handles
 * and HCA objects the container's processes may hold at once ({@code rdma.max}, the same file on v1
 * and v2). Only devices the machine has (the kernel lists them in {@code rdma.max}) can be limited:
 * another is INVALID_ARGUMENT (the kernel's ENODEV).
 *
 * <pre>{@code
 * RdmaSpec rdma = new RdmaSpec(List.of(new RdmaSpec.RdmaLimit("mlx4_0", 2L, 2000L)));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param limits {@code limits}: one limit per device, devices unique; never null
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RdmaSpec(
    @JsonProperty("limits") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RdmaLimit> limits) {

  /** Copies the list and checks that no device appears twice. */
  public RdmaSpec {
    limits = limits == null ? List.of() : List.copyOf(limits);
    Set<String> seen = new HashSet<>();
    for (RdmaLimit limit : limits) {
      if (!seen.add(limit.device())) {
        throw Checks.invalid("rdma.limits.device", limit.device(), "device given twice");
      }
    }
  }

  /**
   * The limits of one device; an absent one is unlimited.
   *
   * @param device {@code device}: the device's name as {@code rdma.max} lists it ({@code "mlx4_0"})
   * @param hcaHandle {@code hca_handle}: most HCA handles, {@code >= 0}, or {@code -1} for
   *     unlimited
   * @param hcaObject {@code hca_object}: most HCA objects, {@code >= 0}, or {@code -1} for
   *     unlimited
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record RdmaLimit(
      @JsonProperty("device") String device,
      @JsonProperty("hca_handle") @Nullable Long hcaHandle,
      @JsonProperty("hca_object") @Nullable Long hcaObject) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]+");

    /** Validates the name and the limits. */
    public RdmaLimit {
      Checks.required(device, "rdma.limits[].device");
      if (!NAME.matcher(device).matches()) {
        throw Checks.invalid(
            "rdma.limits[].device", device, "must be an RDMA device name such as \"mlx4_0\"");
      }
      Checks.unlimitedOrAtLeast(hcaHandle, 0, "rdma.limits[].hca_handle");
      Checks.unlimitedOrAtLeast(hcaObject, 0, "rdma.limits[].hca_object");
      if (hcaHandle != null && hcaHandle > Integer.MAX_VALUE
          || hcaObject != null && hcaObject > Integer.MAX_VALUE) {
        throw Checks.invalid(
            "rdma.limits[]",
            device,
            "limits must be at most " + Integer.MAX_VALUE + " (the kernel's int)");
      }
    }
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder().limits(limits);
  }

  /** Builds a {@link RdmaSpec}; {@link #build()} validates. Not thread-safe. */
  public static final class Builder {
    private List<RdmaLimit> limits = List.of();

    private Builder() {}

    /** Sets {@code limits}. */
    public Builder limits(List<RdmaLimit> limits) {
      this.limits = limits;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public RdmaSpec build() {
      return new RdmaSpec(limits);
    }
  }
}
