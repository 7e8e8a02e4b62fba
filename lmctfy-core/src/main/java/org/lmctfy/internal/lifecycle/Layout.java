package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.naming.ContainerName;

/** Where containers live: the managed hierarchies, the anchor, and the marker keys. */
public final class Layout {
  /**
   * On the anchor cgroup of a container we made: {@code lmctfy}, then the spec fields it was given
   * ({@code lmctfy fields=cpu.limit,memory.limit}), for spec(); one marker, set at once.
   */
  static final String OWNER_KEY = "owner";

  private static final String OWNER_VALUE = "lmctfy";
  private static final String WITH_FIELDS = OWNER_VALUE + " fields=";
  static final String CREATING = "creating";
  static final String DESTROYING = "destroying";
  static final String INTENT_PREFIX = "op.";

  /**
   * {@code leaf.<name>} on a cgroup: its child {@code name} is initMachine's processes leaf, no
   * container.
   */
  static final String LEAF_PREFIX = "leaf.";

  /** The marker that names {@code child} a processes leaf of initMachine. */
  public static String leafKey(String child) {
    return LEAF_PREFIX + child;
  }

  /** On the anchor cgroup of a container another tool made and we updated: its spec fields. */
  static final String FIELDS_KEY = "fields";

  /**
   * {@code record.<name>} on a cgroup: the ownership marker of its child {@code name} when that
   * child is delegated (its directory belongs to a tenant, who could rewrite a marker on it).
   */
  static final String RECORD_PREFIX = "record.";

  private final CgroupFs fs;
  private final CgroupPath root;
  private final List<Hierarchy> managed;
  private final int self;

  public Layout(CgroupFs fs, CgroupPath root) {
    this.fs = fs;
    this.root = root;
    this.self = fs.effectiveUid();
    this.managed =
        fs.hierarchies().stream()
            .filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
            .toList();
    if (managed.isEmpty()) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "no mounted cgroup hierarchy carries a controller (found " + fs.hierarchies() + ")");
    }
  }

  public CgroupFs fs() {
    return fs;
  }

  public CgroupPath root() {
    return root;
  }

  /** The hierarchies a container occupies, the anchor first. */
  public List<Hierarchy> managed() {
    return managed;
  }

  /** The hierarchy whose cgroups carry the markers. */
  public Hierarchy anchor() {
    return managed.get(0);
  }

  public CgroupPath path(ContainerName name) {
    return name.path(root);
  }

  /**
   * Whether markers on the anchor cgroup at {@code path} are believed: its directory belongs to
   * root or to this API's uid, so no tenant could have written them (a tenant may write user xattrs
   * on the directories it owns, and only there). An absent directory carries none.
   */
  boolean trusted(CgroupPath path) throws IOException {
    try {
      int uid = fs.owner(anchor(), path, null).uid();
      return uid == 0 || uid == self;
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT) {
        return true;
      }
      throw e;
    }
  }

  /** The owner of the anchor cgroup at {@code path}, for messages. */
  int ownerOf(CgroupPath path) throws IOException {
    return fs.owner(anchor(), path, null).uid();
  }

  /**
   * The unified hierarchy's {@code cgroup.type} of {@code path}: {@code domain}, {@code domain
   * threaded} (a thread root: another tool made threaded cgroups below it), {@code domain invalid}
   * (below a thread root) or {@code threaded}; {@code domain} where the anchor is a v1 hierarchy
   * (containers are not threaded there) or the cgroup has no such file (the root).
   */
  public String cgroupType(CgroupPath path) throws IOException {
    Hierarchy h = anchor();
    if (h.version() != CgroupVersion.V2 || path.isRoot() || !fs.hasFile(h, path, "cgroup.type")) {
      return "domain";
    }
    return fs.read(h, path, "cgroup.type").strip();
  }

  /**
   * FAILED_PRECONDITION unless the cgroup of {@code name} is a domain one (a thread root is):
   * {@code what} of a threaded cgroup (a container of threads, which only another tool makes:
   * lmctfy has no spec for one) or of a "domain invalid" one below a thread root is refused, saying
   * why; the kernel would refuse its processes, its cgroup.kill and its domain controllers.
   */
  public void requireDomain(ContainerName name, String what) {
    CgroupPath path = path(name);
    String type;
    try {
      type = cgroupType(path);
    } catch (IOException e) {
      throw Errors.of(what + " " + name, e);
    }
    if (type.equals("threaded") || type.equals("domain invalid")) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          what
              + " "
              + name
              + ": its cgroup "
              + describe(anchor(), path)
              + " is of type \""
              + type
              + "\" ("
              + (type.equals("threaded")
                  ? "a cgroup of threads whose processes belong to its thread root above it"
                  : "below a thread root: it can hold no process")
              + "; another tool made it so). lmctfy manages domain "
              + "cgroups of whole processes: act on the container of the thread root, or destroy this one once empty");
    }
  }

  /** The key of the parent's record of {@code name}'s ownership marker. */
  static String recordKey(ContainerName name) {
    return RECORD_PREFIX + name.baseName();
  }

  /** The ownership marker's value for a container given {@code fields}. */
  static String ownerValue(Collection<String> fields) {
    return fields.isEmpty() ? OWNER_VALUE : WITH_FIELDS + String.join(",", fields);
  }

  /** Whether {@code value} is an ownership marker's. */
  static boolean isOwnerValue(String value) {
    return value.equals(OWNER_VALUE) || value.startsWith(WITH_FIELDS);
  }

  /** The fields an ownership marker's value lists. */
  static List<String> fieldsOf(String ownerValue) {
    return ownerValue.startsWith(WITH_FIELDS)
        ? List.of(ownerValue.substring(WITH_FIELDS.length()).split(","))
        : List.of();
  }

  /** The key of the intent marker for {@code name}, set on its parent. */
  static String intentKey(ContainerName name) {
    return INTENT_PREFIX + name.baseName();
  }

  /** {@code "memory:/sys/fs/cgroup/memory/a/b"}, for messages. */
  static String describe(Hierarchy h, CgroupPath p) {
    return h.label() + ":" + h.display(p, null);
  }
}
