package org.lmctfy.spec;

import static org.lmctfy.spec.Checks.unlimitedOrAtLeast;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * Process-count isolation ({@code pids} controller), new in this port.
 *
 * <pre>{@code
 * PidsSpec pids = PidsSpec.builder().limit(512L).build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param limit {@code limit}: most tasks (processes and threads) at once, {@code >= 1}, or {@code
 *     -1} for no limit ({@code pids.max} = {@code max})
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PidsSpec(@JsonProperty("limit") @Nullable Long limit) {
  /** Validates the limit. */
  public PidsSpec {
    unlimitedOrAtLeast(limit, 1, "pids.limit");
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder().limit(limit);
  }

  /**
   * Builds a {@link PidsSpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable Long limit;

    private Builder() {}

    /** Sets {@code limit}. */
    public Builder limit(@Nullable Long limit) {
      this.limit = limit;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public PidsSpec build() {
      return new PidsSpec(limit);
    }
  }
}
