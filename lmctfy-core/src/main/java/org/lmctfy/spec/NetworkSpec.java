package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Network tagging: lmctfy's {@code network} section (empty in lmctfy), here the v1 {@code net_cls}
 * class id and {@code net_prio} per-interface priorities.
 *
 * <pre>{@code
 * NetworkSpec net = new NetworkSpec(0x100001L,
 *     List.of(new NetworkSpec.InterfacePriority("eth0", 5)));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param classid {@code classid}: the {@code net_cls.classid} tag, an unsigned 32-bit value ({@code
 *     0xAAAABBBB} = class AAAA:BBBB)
 * @param priorities {@code priorities}: {@code net_prio.ifpriomap} entries, interfaces unique;
 *     never null
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NetworkSpec(
    @JsonProperty("classid") @Nullable Long classid,
    @JsonProperty("priorities") @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<InterfacePriority> priorities) {

  /** Validates the class id and that no interface appears twice; copies the list. */
  public NetworkSpec {
    if (classid != null && (classid < 0 || classid > 0xFFFF_FFFFL)) {
      throw Checks.invalid("network.classid", classid, "must be in 0..4294967295 (32 bits)");
    }
    priorities = priorities == null ? List.of() : List.copyOf(priorities);
    Set<String> seen = new HashSet<>();
    for (InterfacePriority p : priorities) {
      if (!seen.add(p.iface())) {
        throw Checks.invalid("network.priorities.interface", p.iface(), "interface given twice");
      }
    }
  }

  /**
   * The priority of the container's traffic on one interface.
   *
   * @param iface {@code interface}: the interface name, as {@code "eth0"}; required, at most 15
   *     characters, no {@code /} or white space
   * @param priority {@code priority}: the priority, {@code >= 0}; required
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record InterfacePriority(
      @JsonProperty("interface") String iface,
      @JsonProperty("priority") @JsonSetter(nulls = Nulls.FAIL) int priority) {

    /** Validates the name and priority. */
    public InterfacePriority {
      Checks.required(iface, "network.priorities[].interface");
      if (iface.isEmpty()
          || iface.length() > 15
          || iface.chars().anyMatch(c -> c == '/' || c <= ' ' || c == 0x7f)) {
        throw Checks.invalid(
            "network.priorities[].interface",
            iface,
            "must be an interface name: 1 to 15 characters, no '/' or white space");
      }
      if (priority < 0) {
        throw Checks.invalid("network.priorities[].priority", priority, "must be >= 0");
      }
    }
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder().classid(classid).priorities(priorities);
  }

  /**
   * Builds a {@link NetworkSpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable Long classid;
    private List<InterfacePriority> priorities = List.of();

    private Builder() {}

    /** Sets {@code classid}. */
    public Builder classid(@Nullable Long classid) {
      this.classid = classid;
      return this;
    }

    /** Sets {@code priorities}. */
    public Builder priorities(List<InterfacePriority> priorities) {
      this.priorities = priorities;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public NetworkSpec build() {
      return new NetworkSpec(classid, priorities);
    }
  }
}
