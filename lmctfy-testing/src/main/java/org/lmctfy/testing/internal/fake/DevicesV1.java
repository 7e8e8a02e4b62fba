package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.wo;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/**
 * The v1 devices controller: a default (allow or deny everything) plus exceptions. All checked on
 * this kernel: a rule is "TYPE MAJ:MIN ACCESS" with single spaces, TYPE b/c, numbers or "*", up to
 * three of r/w/m (more characters are ignored); a rule starting with "a" resets to allow-all or
 * deny-all and is EINVAL when the cgroup has children; a child may not allow what its parent denies
 * (EPERM); devices.list prints "a *:* rwm" when the default is allow, else the exceptions in the
 * order added, accesses of the same device merged.
 */
final class DevicesV1 extends Controller {
  private static final String STATE = "devices";
  private static final Rules ALLOW_ALL = new Rules(true, List.of());

  private static final List<FileSpec> FILES =
      List.of(wo("devices.allow"), wo("devices.deny"), ro("devices.list", null));

  static final DevicesV1 INSTANCE = new DevicesV1();

  /** An exception: type 'b'/'c'/'a', major and minor (-1 for "*"), access bits r=1 w=2 m=4. */
  record Rule(char type, long major, long minor, int access) {
    boolean covers(Rule other) {
      return (type == 'a' || type == other.type)
          && (major == -1 || major == other.major)
          && (minor == -1 || minor == other.minor)
          && (other.access & ~access) == 0;
    }

    boolean overlaps(Rule other) {
      return (type == 'a' || other.type == 'a' || type == other.type)
          && (major == -1 || other.major == -1 || major == other.major)
          && (minor == -1 || other.minor == -1 || minor == other.minor)
          && (access & other.access) != 0;
    }

    boolean sameDevice(Rule other) {
      return type == other.type && major == other.major && minor == other.minor;
    }

    @Override
    public String toString() {
      return type
          + " "
          + (major < 0 ? "*" : Long.toString(major))
          + ":"
          + (minor < 0 ? "*" : Long.toString(minor))
          + " "
          + ((access & 1) != 0 ? "r" : "")
          + ((access & 2) != 0 ? "w" : "")
          + ((access & 4) != 0 ? "m" : "");
    }
  }

  /** Immutable: shared between a parent and the children that copied it. */
  record Rules(boolean allowByDefault, List<Rule> exceptions) {
    boolean permits(Rule r) {
      if (allowByDefault) {
        return exceptions.stream().noneMatch(e -> e.overlaps(r));
      }
      return exceptions.stream().anyMatch(e -> e.covers(r));
    }
  }

  private DevicesV1() {
    super("devices", FILES);
  }

  static Rules rules(Node node) {
    Rules r = node.state(STATE);
    return r == null ? ALLOW_ALL : r;
  }

  @Override
  public void created(Node node) {
    Rules parent = rules(node.parent);
    if (parent != ALLOW_ALL) {
      node.setState(STATE, parent);
    }
  }

  @Override
  public String read(Node node, FileSpec file) {
    Rules r = rules(node);
    if (r.allowByDefault()) {
      return "a *:* rwm\n";
    }
    StringBuilder sb = new StringBuilder();
    for (Rule e : r.exceptions()) {
      sb.append(e).append('\n');
    }
    return sb.toString();
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    boolean allow = file.name().equals("devices.allow");
    if (value.startsWith("a")) {
      if (!node.children().isEmpty()) {
        throw KernelError.of(Errno.EINVAL);
      }
      if (allow && !node.isRoot() && !rules(node.parent).allowByDefault()) {
        throw KernelError.of(Errno.EPERM);
      }
      node.setState(STATE, new Rules(allow, List.of()));
      return;
    }
    Rule rule = parse(value);
    Rules r = rules(node);
    if (allow && !node.isRoot() && !rules(node.parent).permits(rule)) {
      throw KernelError.of(Errno.EPERM);
    }
    boolean add = allow != r.allowByDefault();
    List<Rule> ex = add ? added(r.exceptions(), rule) : removed(r.exceptions(), rule);
    node.setState(STATE, new Rules(r.allowByDefault(), ex));
    if (!allow) {
      for (Node child : node.children().values()) {
        propagate(child, rule, r.allowByDefault());
      }
    }
  }

  /**
   * propagate_exception(): a new denial reaches every descendant, added to its exceptions where
   * both allow by default, else removed from them; then what the parent no longer permits goes.
   */
  private static void propagate(Node node, Rule rule, boolean rootAllows) {
    Rules r = rules(node);
    boolean bothAllow = rootAllows && r.allowByDefault();
    List<Rule> ex = bothAllow ? added(r.exceptions(), rule) : removed(r.exceptions(), rule);
    Rules parent = rules(node.parent);
    List<Rule> kept = new ArrayList<>();
    for (Rule e : ex) {
      if (r.allowByDefault() || parent.permits(e)) {
        kept.add(e);
      }
    }
    node.setState(STATE, new Rules(r.allowByDefault(), List.copyOf(kept)));
    for (Node child : node.children().values()) {
      propagate(child, rule, rootAllows);
    }
  }

  private static List<Rule> added(List<Rule> list, Rule rule) {
    List<Rule> out = new ArrayList<>(list);
    for (int i = 0; i < out.size(); i++) {
      if (out.get(i).sameDevice(rule)) {
        Rule e = out.get(i);
        out.set(i, new Rule(e.type(), e.major(), e.minor(), e.access() | rule.access()));
        return List.copyOf(out);
      }
    }
    out.add(rule);
    return List.copyOf(out);
  }

  private static List<Rule> removed(List<Rule> list, Rule rule) {
    List<Rule> out = new ArrayList<>();
    for (Rule e : list) {
      if (e.sameDevice(rule)) {
        int left = e.access() & ~rule.access();
        if (left != 0) {
          out.add(new Rule(e.type(), e.major(), e.minor(), left));
        }
      } else {
        out.add(e);
      }
    }
    return List.copyOf(out);
  }

  static Rule parse(String value) {
    int i = 0;
    char type = value.charAt(i++);
    if ((type != 'b' && type != 'c') || i >= value.length() || value.charAt(i++) != ' ') {
      throw KernelError.of(Errno.EINVAL);
    }
    int colon = value.indexOf(':', i);
    int space = colon < 0 ? -1 : value.indexOf(' ', colon);
    if (colon < 0 || space < 0) {
      throw KernelError.of(Errno.EINVAL);
    }
    long major = number(value.substring(i, colon));
    long minor = number(value.substring(colon + 1, space));
    int access = 0;
    for (int k = space + 1; k < Math.min(value.length(), space + 4); k++) {
      char c = value.charAt(k);
      if (c == '\n') {
        break;
      }
      access |=
          switch (c) {
            case 'r' -> 1;
            case 'w' -> 2;
            case 'm' -> 4;
            default -> throw KernelError.of(Errno.EINVAL);
          };
    }
    if (access == 0) {
      throw KernelError.of(Errno.EINVAL);
    }
    return new Rule(type, major, minor, access);
  }

  /** "*" or a decimal u32 (checked: "01" is 1, 4294967296 is EINVAL). */
  private static long number(String s) {
    if (s.equals("*")) {
      return -1;
    }
    if (s.isEmpty() || s.length() > 12 || !s.chars().allMatch(Character::isDigit)) {
      throw KernelError.of(Errno.EINVAL);
    }
    long v = Long.parseLong(s);
    if (v > 0xffffffffL) {
      throw KernelError.of(Errno.EINVAL);
    }
    return v;
  }
}
