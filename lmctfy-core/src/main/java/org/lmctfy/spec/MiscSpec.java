package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Scalar host resources of the v2 {@code misc} controller (such as AMD SEV address space ids,
 * {@code sev} and {@code sev_es}): a most-at-once count per resource, {@code misc.max}. Only the
 * resources the machine has (its root's {@code misc.capacity}) can be limited.
 *
 * <pre>{@code
 * MiscSpec misc = new MiscSpec(List.of(new MiscSpec.MiscLimit("sev", 4)));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param limits {@code limits}: one limit per resource, resources unique; never null
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MiscSpec(
    @JsonProperty("limits") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<MiscLimit> limits) {

  /** Copies the list and checks that no resource appears twice. */
  public MiscSpec {
    limits = limits == null ? List.of() : List.copyOf(limits);
    Set<String> seen = new HashSet<>();
    for (MiscLimit limit : limits) {
      if (!seen.add(limit.resource())) {
        throw Checks.invalid("misc.limits.resource", limit.resource(), "resource given twice");
      }
    }
  }

  /**
   * The limit of one resource.
   *
   * @param resource {@code resource}: the name as {@code misc.capacity} lists it ({@code "sev"})
   * @param limit {@code limit}: most units at once, {@code >= 0}, or {@code -1} for unlimited
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record MiscLimit(
      @JsonProperty("resource") String resource,
      @JsonProperty("limit") @JsonSetter(nulls = Nulls.FAIL) long limit) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

    /** Validates the name and limit. */
    public MiscLimit {
      Checks.required(resource, "misc.limits[].resource");
      if (!NAME.matcher(resource).matches()) {
        throw Checks.invalid(
            "misc.limits[].resource", resource, "must be a resource name such as \"sev\"");
      }
      Checks.unlimitedOrAtLeast(limit, 0, "misc.limits[].limit");
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

  /** Builds a {@link MiscSpec}; {@link #build()} validates. Not thread-safe. */
  public static final class Builder {
    private List<MiscLimit> limits = List.of();

    private Builder() {}

    /** Sets {@code limits}. */
    public Builder limits(List<MiscLimit> limits) {
      this.limits = limits;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public MiscSpec build() {
      return new MiscSpec(limits);
    }
  }
}
