package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Huge page isolation ({@code hugetlb} controller), new in this port: a byte limit per huge page
 * size.
 *
 * <pre>{@code
 * HugetlbSpec huge = new HugetlbSpec(List.of(new HugetlbSpec.HugetlbLimit("2MB", 1L << 30, null)));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param limits {@code limits}: one limit per page size, page sizes unique; never null
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HugetlbSpec(
    @JsonProperty("limits") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<HugetlbLimit> limits) {

  /** Copies the list and checks that no page size appears twice. */
  public HugetlbSpec {
    limits = limits == null ? List.of() : List.copyOf(limits);
    Set<String> seen = new HashSet<>();
    for (HugetlbLimit limit : limits) {
      if (!seen.add(limit.pageSize())) {
        throw Checks.invalid("hugetlb.limits.page_size", limit.pageSize(), "page size given twice");
      }
    }
  }

  /**
   * The limit for one page size.
   *
   * @param pageSize {@code page_size}: the size as the kernel names it in {@code
   *     hugetlb.<size>.limit_in_bytes}: digits then {@code KB}, {@code MB} or {@code GB}, as {@code
   *     "2MB"} or {@code "1GB"}; required
   * @param limit {@code limit}: bytes of huge pages of this size, or {@code -1} for unlimited;
   *     required
   * @param reservedLimit {@code reserved_limit}: bytes of huge pages of this size the container may
   *     reserve (at mmap, before any fault), or {@code -1} for unlimited ({@code
   *     hugetlb.<size>.rsvd.max} on v2, {@code hugetlb.<size>.rsvd.limit_in_bytes} on v1); optional
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record HugetlbLimit(
      @JsonProperty("page_size") String pageSize,
      @JsonProperty("limit") @JsonSetter(nulls = Nulls.FAIL) @Inputs.ByteSize long limit,
      @JsonProperty("reserved_limit") @Inputs.ByteSize @Nullable Long reservedLimit) {

    private static final Pattern PAGE_SIZE = Pattern.compile("[1-9][0-9]*[KMG]B");

    /** Validates the page size and limits. */
    @JsonCreator
    public HugetlbLimit {
      Checks.unlimitedOrAtLeast(reservedLimit, 0, "hugetlb.limits[].reserved_limit");
      Checks.required(pageSize, "hugetlb.limits[].page_size");
      if (!PAGE_SIZE.matcher(pageSize).matches()) {
        throw Checks.invalid(
            "hugetlb.limits[].page_size", pageSize, "must be a size such as \"2MB\" or \"1GB\"");
      }
      Checks.unlimitedOrAtLeast(limit, 0, "hugetlb.limits[].limit");
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

  /** Builds a {@link HugetlbSpec}; {@link #build()} validates. Not thread-safe. */
  public static final class Builder {
    private List<HugetlbLimit> limits = List.of();

    private Builder() {}

    /** Sets {@code limits}. */
    public Builder limits(List<HugetlbLimit> limits) {
      this.limits = limits;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public HugetlbSpec build() {
      return new HugetlbSpec(limits);
    }
  }
}
