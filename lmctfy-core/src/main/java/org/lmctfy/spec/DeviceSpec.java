package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Device access control: lmctfy's {@code device} section. The rules are {@code ALLOW ALL rwm}
 * alone, or {@code DENY ALL rwm} followed by ALLOW rules for block or character devices (what the
 * kernel can report back). On v1 they are written to {@code devices.deny} and {@code
 * devices.allow}; on cgroup v2, which has no device files, they become an eBPF cgroup-device
 * program attached to the container's cgroup with {@code BPF_F_ALLOW_MULTI} (so an ancestor's
 * program still applies), replaced atomically on update and gone with the cgroup; {@code ALLOW ALL}
 * needs no program. Loading one needs {@code CAP_BPF} or {@code CAP_SYS_ADMIN}: without,
 * PERMISSION_DENIED. A device access is allowed when one ALLOW rule covers the device and every
 * access requested ({@code r}, {@code w}, {@code m}; the rules of one device are merged).
 *
 * <pre>{@code
 * DeviceSpec devices = new DeviceSpec(List.of(
 *     new DeviceSpec.DeviceRule(Permission.DENY, Type.ALL, -1, -1, "rwm"),
 *     new DeviceSpec.DeviceRule(Permission.ALLOW, Type.CHAR, 1, 3, "rwm")));   // /dev/null
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param rules {@code rules}: the rules, in the order they apply; never null
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeviceSpec(
    @JsonProperty("rules") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<DeviceRule> rules) {

  /** Copies the list. */
  public DeviceSpec {
    rules = rules == null ? List.of() : List.copyOf(rules);
  }

  /** Whether a rule grants or takes away access. */
  public enum Permission {
    /** Lets the container use the devices. */
    ALLOW,
    /** Keeps the container from the devices. */
    DENY
  }

  /** Which devices a rule covers: all, block devices or character devices. */
  public enum Type {
    /** Every device, block and character ({@code a}). */
    ALL('a'),
    /** Block devices ({@code b}). */
    BLOCK('b'),
    /** Character devices ({@code c}). */
    CHAR('c');

    private final char kernel;

    Type(char kernel) {
      this.kernel = kernel;
    }

    /** The kernel's letter: {@code a}, {@code b} or {@code c}. */
    public char kernelLetter() {
      return kernel;
    }
  }

  /**
   * One rule.
   *
   * @param permission {@code permission}: ALLOW or DENY; required
   * @param type {@code type}: ALL, BLOCK or CHAR; required
   * @param major {@code major}: the major number, or {@code -1} (the default) for any; must be
   *     {@code -1} for type ALL
   * @param minor {@code minor}: the minor number, or {@code -1} (the default) for any; must be
   *     {@code -1} for type ALL
   * @param access {@code access}: a non-empty subset of {@code "rwm"} (read, write, mknod), each
   *     letter at most once; required
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record DeviceRule(
      @JsonProperty("permission") Permission permission,
      @JsonProperty("type") Type type,
      @JsonProperty("major") long major,
      @JsonProperty("minor") long minor,
      @JsonProperty("access") String access) {

    private static final String FIELD = "device.rules[].";

    /** Validates every field. */
    public DeviceRule {
      Checks.required(permission, FIELD + "permission");
      Checks.required(type, FIELD + "type");
      Checks.required(access, FIELD + "access");
      anyOrAtLeastZero(major, "major", type);
      anyOrAtLeastZero(minor, "minor", type);
      if (access.isEmpty()
          || !access.chars().allMatch(c -> "rwm".indexOf(c) >= 0)
          || access.chars().distinct().count() != access.length()) {
        throw Checks.invalid(
            FIELD + "access", access, "must be a non-empty subset of \"rwm\" without repeats");
      }
    }

    /** Binds JSON and text: an absent major or minor means any ({@code -1}). */
    @JsonCreator
    static DeviceRule fromJson(
        @JsonProperty("permission") Permission permission,
        @JsonProperty("type") Type type,
        @JsonProperty("major") @Nullable Long major,
        @JsonProperty("minor") @Nullable Long minor,
        @JsonProperty("access") String access) {
      return new DeviceRule(
          permission, type, major == null ? -1 : major, minor == null ? -1 : minor, access);
    }

    private static void anyOrAtLeastZero(long number, String name, Type type) {
      if (number < -1) {
        throw Checks.invalid(FIELD + name, number, "must be >= 0, or -1 for any");
      }
      if (type == Type.ALL && number != -1) {
        throw Checks.invalid(FIELD + name, number, "must be -1 (any) when type is ALL");
      }
    }

    /** The rule as the kernel writes it: {@code "c 1:3 rwm"}, {@code "a *:* rwm"}. */
    public String kernelRule() {
      return type.kernelLetter() + " " + number(major) + ":" + number(minor) + " " + access;
    }

    private static String number(long n) {
      return n == -1 ? "*" : Long.toString(n);
    }
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder().rules(rules);
  }

  /** Builds a {@link DeviceSpec}; {@link #build()} validates. Not thread-safe. */
  public static final class Builder {
    private List<DeviceRule> rules = List.of();

    private Builder() {}

    /** Sets {@code rules}. */
    public Builder rules(List<DeviceRule> rules) {
      this.rules = rules;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public DeviceSpec build() {
      return new DeviceSpec(rules);
    }
  }
}
