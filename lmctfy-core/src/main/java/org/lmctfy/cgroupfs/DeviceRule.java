package org.lmctfy.cgroupfs;

import java.util.Objects;

/**
 * One device that a cgroup v2 device filter allows ({@link CgroupFs#setDeviceFilter}): its type,
 * its major and minor numbers ({@code -1}: any) and the accesses allowed ({@code r}, {@code w},
 * {@code m}). Its text is the kernel's {@code devices.list} form, {@code c 1:3 rwm}. An immutable
 * value, validated when made.
 *
 * <pre>{@code
 * fs.setDeviceFilter(unified, job, List.of(DeviceRule.parse("c 1:3 rwm"), new DeviceRule(CHAR, 1, 5, "r")));
 * }</pre>
 *
 * @param type block or character device
 * @param major the major number, or {@code -1} for any
 * @param minor the minor number, or {@code -1} for any
 * @param access a non-empty subset of {@code "rwm"}, without repeats
 */
public record DeviceRule(Type type, long major, long minor, String access) {
  /** The type of device a rule covers. */
  public enum Type {
    /** A block device ({@code b}). */
    BLOCK,
    /** A character device ({@code c}). */
    CHAR
  }

  /** Checks the numbers and the access letters. */
  public DeviceRule {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(access, "access");
    if (major < -1 || minor < -1) {
      throw new IllegalArgumentException(
          "device numbers are >= 0, or -1 for any: " + major + ":" + minor);
    }
    if (access.isEmpty()
        || !access.chars().allMatch(c -> "rwm".indexOf(c) >= 0)
        || access.chars().distinct().count() != access.length()) {
      throw new IllegalArgumentException(
          "access must be a non-empty subset of \"rwm\" without repeats: " + access);
    }
  }

  /**
   * Reads a rule in the kernel's {@code devices.list} form.
   *
   * @param line such as {@code c 1:3 rwm} or {@code b *:* r}
   * @throws IllegalArgumentException if {@code line} is not one block or character rule
   */
  public static DeviceRule parse(String line) {
    String[] parts = line.strip().split(" ");
    String[] numbers = parts.length == 3 ? parts[1].split(":") : new String[0];
    if (numbers.length != 2 || !parts[0].equals("b") && !parts[0].equals("c")) {
      throw new IllegalArgumentException("not a device rule (\"c 1:3 rwm\"): " + line);
    }
    return new DeviceRule(
        parts[0].equals("b") ? Type.BLOCK : Type.CHAR,
        number(numbers[0]),
        number(numbers[1]),
        parts[2]);
  }

  private static long number(String n) {
    return n.equals("*") ? -1 : Long.parseLong(n);
  }

  /** The rule as {@code devices.list} shows it: {@code c 1:3 rwm}, {@code *} for any number. */
  @Override
  public String toString() {
    return (type == Type.BLOCK ? "b " : "c ")
        + (major == -1 ? "*" : major)
        + ":"
        + (minor == -1 ? "*" : minor)
        + " "
        + access;
  }
}
