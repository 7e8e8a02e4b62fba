package org.lmctfy.spec;

import static org.lmctfy.internal.codec.Checks.unlimitedOrAtLeast;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Process-count isolation ({@code pids} controller), new in this port.
 *
 * <pre>{@code
 * PidsSpec pids = new PidsSpec(512L);
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param limit {@code limit}: most tasks (processes and threads) at once, {@code >= 1}, or {@code
 *     -1} for no limit ({@code pids.max} = {@code max})
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PidsSpec(@JsonProperty("limit") Long limit) {
  /**
   * Validates the limit.
   *
   * @param limit the limit
   */
  public PidsSpec {
    unlimitedOrAtLeast(limit, 1, "pids.limit");
  }
}
