package org.lmctfy.cgroupfs;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A cgroup's path inside a hierarchy, relative to where the hierarchy is mounted: {@code "/"} for
 * the mount's root, {@code "/a/b"} below it. Always absolute and clean: no empty, {@code "."} or
 * {@code ".."} component, no NUL.
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public final class CgroupPath implements Comparable<CgroupPath> {
  private static final CgroupPath ROOT = new CgroupPath("/");

  private final String value;

  private CgroupPath(String value) {
    this.value = value;
  }

  /**
   * The root of a hierarchy's mount.
   *
   * @return the root of a hierarchy's mount
   */
  public static CgroupPath root() {
    return ROOT;
  }

  /**
   * Parses an absolute, clean path.
   *
   * @param value the value
   * @return the CgroupPath
   * @throws IllegalArgumentException naming the value if it is not absolute and clean
   */
  public static CgroupPath of(String value) {
    Objects.requireNonNull(value, "value");
    if (value.equals("/")) {
      return ROOT;
    }
    if (!value.startsWith("/") || value.endsWith("/") || value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("not an absolute clean cgroup path: \"" + value + "\"");
    }
    int start = 1;
    while (true) { // each component, without a regex split: this runs on every operation's paths
      int end = value.indexOf('/', start);
      checkComponent(value, start, end < 0 ? value.length() : end);
      if (end < 0) {
        return new CgroupPath(value);
      }
      start = end + 1;
    }
  }

  private static void checkComponent(String value, int start, int end) {
    int n = end - start;
    if (n == 0
        || value.charAt(start) == '.' && (n == 1 || n == 2 && value.charAt(start + 1) == '.')) {
      throw new IllegalArgumentException(
          "not a cgroup name: \"" + value.substring(start, end) + "\"");
    }
  }

  private static void checkComponent(String component) {
    if (component.indexOf('/') >= 0 || component.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("not a cgroup name: \"" + component + "\"");
    }
    checkComponent(component, 0, component.length());
  }

  /**
   * The child called {@code name}.
   *
   * @param name the child's name, one path component
   * @return the child called {@code name}
   */
  public CgroupPath resolve(String name) {
    checkComponent(name);
    return new CgroupPath(isRoot() ? "/" + name : value + "/" + name);
  }

  /**
   * This path below {@code base}: {@code /a} under {@code /scratch} is {@code /scratch/a}.
   *
   * @param base the base
   * @return this path below {@code base}: {@code /a} under {@code /scratch} is {@code /scratch/a}
   */
  public CgroupPath under(CgroupPath base) {
    if (isRoot()) {
      return base;
    }
    return base.isRoot() ? this : new CgroupPath(base.value + value);
  }

  /**
   * This path relative to {@code ancestor}, which must be an ancestor or equal.
   *
   * @param ancestor the ancestor
   * @return this path relative to {@code ancestor}, which must be an ancestor or equal
   */
  public CgroupPath relativeTo(CgroupPath ancestor) {
    if (!ancestor.isAncestorOrSelf(this)) {
      throw new IllegalArgumentException(value + " is not below " + ancestor.value);
    }
    if (ancestor.isRoot()) {
      return this;
    }
    return value.length() == ancestor.value.length()
        ? ROOT
        : new CgroupPath(value.substring(ancestor.value.length()));
  }

  /**
   * Whether this is {@code other} or one of its ancestors.
   *
   * @param other the other
   * @return whether this is {@code other} or one of its ancestors
   */
  public boolean isAncestorOrSelf(CgroupPath other) {
    return isRoot() || other.value.equals(value) || other.value.startsWith(value + "/");
  }

  /**
   * The parent; the root's parent is the root.
   *
   * @return the parent; the root's parent is the root
   */
  public CgroupPath parent() {
    int slash = value.lastIndexOf('/');
    return slash <= 0 ? ROOT : new CgroupPath(value.substring(0, slash));
  }

  /**
   * The last component; {@code ""} for the root.
   *
   * @return the last component; {@code ""} for the root
   */
  public String name() {
    return value.substring(value.lastIndexOf('/') + 1);
  }

  /**
   * Whether this is the hierarchy's root, {@code "/"}.
   *
   * @return whether it is the root
   */
  public boolean isRoot() {
    return value.equals("/");
  }

  /**
   * The number of components; 0 for the root.
   *
   * @return the number of components; 0 for the root
   */
  public int depth() {
    return components().size();
  }

  /**
   * The components from the top down.
   *
   * @return the components from the top down
   */
  public List<String> components() {
    List<String> out = new ArrayList<>();
    if (!isRoot()) {
      for (int start = 1, end; start > 0; start = end + 1) {
        end = value.indexOf('/', start);
        out.add(value.substring(start, end < 0 ? value.length() : end));
      }
    }
    return out;
  }

  /**
   * The path as a string, {@code "/a/b"}.
   *
   * @return the path as a string, {@code "/a/b"}
   */
  public String value() {
    return value;
  }

  @Override
  public int compareTo(CgroupPath o) {
    return value.compareTo(o.value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CgroupPath && ((CgroupPath) o).value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }
}
