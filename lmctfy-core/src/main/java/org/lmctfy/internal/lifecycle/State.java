package org.lmctfy.internal.lifecycle;

import java.util.List;
import java.util.stream.Collectors;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.naming.ContainerName;

/**
 * What is at a container's path across the managed hierarchies, read without a lock.
 *
 * @param intent the parent's intent marker for it ({@code creating}, {@code destroying}) or null
 * @param owned whether its anchor cgroup carries our ownership marker, where we trust it
 * @param ignored a marker found and not believed (a tenant could have forged it), described; or
 *     null
 */
public record State(
    ContainerName name,
    CgroupPath path,
    List<Hierarchy> present,
    List<Hierarchy> missing,
    String intent,
    boolean owned,
    String ignored) {

  public enum Kind {
    /** Nothing anywhere. */
    ABSENT,
    /** In every hierarchy, made by us and committed. */
    COMPLETE,
    /** In every hierarchy, not made by us (another tool, or by hand): a container all the same. */
    FOREIGN,
    /** A create or destroy began and has not finished (in progress, or its process died). */
    UNFINISHED,
    /** An intent marker left after its cgroups were all gone. */
    STALE_INTENT,
    /** In some hierarchies only, with no intent: not a state we leave; found, never guessed at. */
    PARTIAL
  }

  public Kind kind() {
    if (intent != null) {
      return present.isEmpty() ? Kind.STALE_INTENT : Kind.UNFINISHED;
    }
    if (present.isEmpty()) {
      return Kind.ABSENT;
    }
    if (missing.isEmpty()) {
      return owned ? Kind.COMPLETE : Kind.FOREIGN;
    }
    return Kind.PARTIAL;
  }

  /** Whether the container exists for the API's callers. */
  public boolean isContainer() {
    Kind k = kind();
    return k == Kind.COMPLETE || k == Kind.FOREIGN;
  }

  /** Whether what is there is ours to remove without asking (ours, or a process of ours died). */
  public boolean isOurs() {
    return intent != null || owned;
  }

  /** {@code present in memory, cpu; missing in freezer} with display paths. */
  public String describe() {
    return "present in " + labels(present) + "; missing in " + labels(missing);
  }

  private String labels(List<Hierarchy> hs) {
    return hs.isEmpty()
        ? "none"
        : hs.stream().map(h -> Layout.describe(h, path)).collect(Collectors.joining(", "));
  }
}
