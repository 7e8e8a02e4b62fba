package org.lmctfy.internal.naming;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;

/**
 * A resolved, valid container name: {@code "/"} or {@code "/a/b"}, relative to the API's root.
 *
 * <p>lmctfy's rules: characters {@code [A-Za-z0-9_.-/]}; relative names are joined to the caller's
 * container; {@code .} and {@code ..} are resolved; every component starts with a letter or digit.
 * Added here: a name never resolves above the root; a component is at most {@value #MAX_COMPONENT}
 * characters and a name at most {@value #MAX_LENGTH}; a component that is or looks like a kernel
 * interface file ({@code tasks}, {@code cgroup.procs}, {@code memory.max}...) is refused, since the
 * kernel would mistake it for one. Every refusal is INVALID_ARGUMENT.
 *
 * <p>Immutable. It keeps its parent, base name and last cgroup path once made: one operation asks
 * for them many times, and every new path string would be hashed again by each lookup.
 */
public final class ContainerName {
  public static final int MAX_COMPONENT = 200;
  public static final int MAX_LENGTH = 1024;
  private static final ContainerName ROOT = new ContainerName(CgroupPath.root());

  /** The name as a path below the API's root: a container name is a valid cgroup path. */
  private final CgroupPath relative;

  /** Set once, racily but safely: a final-field object, and any thread computes the same value. */
  private ContainerName parent;

  private String baseName;
  private Placed placed;

  /** This name's cgroup path below one root. */
  private record Placed(CgroupPath root, CgroupPath path) {}

  private ContainerName(CgroupPath relative) {
    this.relative = relative;
  }

  /** The name as a string, {@code "/"} or {@code "/a/b"}. */
  public String value() {
    return relative.value();
  }

  /** Controllers whose {@code <controller>.*} files a component could be mistaken for. */
  private static final Set<String> CONTROLLERS =
      Set.of(
          "cgroup",
          "cpu",
          "cpuacct",
          "cpuset",
          "memory",
          "devices",
          "freezer",
          "blkio",
          "io",
          "pids",
          "hugetlb",
          "net_cls",
          "net_prio",
          "perf_event",
          "rdma",
          "misc",
          "rlimit");

  public static ContainerName root() {
    return ROOT;
  }

  /**
   * Resolves {@code name}, relative names against {@code caller} (the caller's container).
   *
   * @throws LmctfyException INVALID_ARGUMENT naming the rule the name breaks
   */
  public static ContainerName resolve(String name, ContainerName caller) {
    if (name == null || name.isEmpty()) {
      throw invalid(name, "a container name must not be empty");
    }
    if (name.length() > MAX_LENGTH * 4) {
      throw invalid(name, "longer than " + MAX_LENGTH + " characters");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c == '/' || isNameCharacter(c))) {
        throw invalid(
            name,
            "character "
                + describe(c)
                + " at position "
                + i
                + " is not allowed (allowed: letters, digits, '_', '-', '.', '/')");
      }
    }
    Deque<String> parts = new ArrayDeque<>();
    if (!name.startsWith("/")) {
      parts.addAll(caller.components());
    }
    boolean canonical =
        name.startsWith("/"); // "/a/b" as given: no ".", "..", empty or trailing component
    for (int start = 0, end; start <= name.length(); start = end + 1) {
      end = name.indexOf('/', start);
      if (end < 0) {
        end = name.length();
      }
      String part = name.substring(start, end);
      if (part.isEmpty() || part.equals(".")) {
        canonical &= start == 0 || part.isEmpty() && end == name.length() && start == 1;
        continue;
      }
      canonical &= !part.equals("..");
      if (part.equals("..")) {
        if (parts.isEmpty()) {
          throw invalid(name, "\"..\" leads above the root container");
        }
        parts.removeLast();
        continue;
      }
      checkComponent(name, part);
      parts.addLast(part);
    }
    String value = canonical ? name : "/" + String.join("/", parts);
    if (value.length() > MAX_LENGTH) {
      throw invalid(name, "resolves to " + value.length() + " characters, more than " + MAX_LENGTH);
    }
    return parts.isEmpty() ? ROOT : new ContainerName(CgroupPath.of(value));
  }

  private static void checkComponent(String name, String part) {
    char first = part.charAt(0);
    if (!Character.isLetterOrDigit(first)) {
      throw invalid(name, "component \"" + part + "\" must start with a letter or digit");
    }
    if (part.length() > MAX_COMPONENT) {
      throw invalid(
          name,
          "component \""
              + part.substring(0, 20)
              + "...\" is longer than "
              + MAX_COMPONENT
              + " characters");
    }
    int dot = part.indexOf('.');
    if (isKernelFile(part) || dot > 0 && CONTROLLERS.contains(part.substring(0, dot))) {
      throw invalid(name, "component \"" + part + "\" is, or looks like, a kernel interface file");
    }
  }

  /**
   * Whether {@code part} names an interface file that carries no controller prefix (compared, not
   * hashed).
   */
  private static boolean isKernelFile(String part) {
    return part.equals("tasks") || part.equals("notify_on_release") || part.equals("release_agent");
  }

  private static String describe(char c) {
    return c >= 0x20 && c < 0x7f ? "'" + c + "'" : String.format("U+%04X", (int) c);
  }

  private static LmctfyException invalid(String name, String why) {
    String shown =
        name == null ? "null" : name.length() > 80 ? name.substring(0, 80) + "..." : name;
    shown = shown.replace("\0", "\\0");
    return new LmctfyException(
        ErrorCode.INVALID_ARGUMENT, "invalid container name \"" + shown + "\": " + why);
  }

  public boolean isRoot() {
    return relative.isRoot();
  }

  public List<String> components() {
    return relative.components();
  }

  /** The parent container; the root's parent is the root. */
  public ContainerName parent() {
    ContainerName p = parent;
    if (p == null) {
      CgroupPath up = relative.parent();
      p = up.isRoot() ? ROOT : new ContainerName(up);
      parent = p;
    }
    return p;
  }

  /** The last component; {@code ""} for the root. */
  public String baseName() {
    String b = baseName;
    if (b == null) {
      b = relative.name();
      baseName = b;
    }
    return b;
  }

  /** The child container {@code component} (already a valid component). */
  public ContainerName child(String component) {
    // of(), not resolve(): as before, a record key such as "a/b" still names a grandchild.
    return new ContainerName(CgroupPath.of(isRoot() ? "/" + component : value() + "/" + component));
  }

  /** The alphabet of a name's components: ASCII letters, digits, '_', '-' and '.'. */
  private static boolean isNameCharacter(int c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '_'
        || c == '-'
        || c == '.';
  }

  /** Whether {@code component} is a valid name component (foreign directories may not be). */
  public static boolean isValidComponent(String component) {
    try {
      checkComponent(component, component);
      return component.chars().allMatch(ContainerName::isNameCharacter);
    } catch (LmctfyException e) {
      return false;
    }
  }

  /** This container's cgroup path, below {@code root}. */
  public CgroupPath path(CgroupPath root) {
    if (isRoot()) {
      return root;
    }
    Placed p = placed;
    if (p == null || !p.root().equals(root)) {
      p = new Placed(root, relative.under(root));
      placed = p;
    }
    return p.path();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ContainerName && ((ContainerName) o).relative.equals(relative);
  }

  @Override
  public int hashCode() {
    return relative.hashCode();
  }

  @Override
  public String toString() {
    return relative.toString();
  }
}
