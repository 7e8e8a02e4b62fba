package org.lmctfy.internal.resources;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;

/**
 * children_limit: v2 {@code cgroup.max.descendants} ({@code max}, read back as null, when none);
 * REPLACE without it writes {@code max} where a cgroup2 hierarchy is mounted.
 */
final class ChildrenLimitHandler implements ResourceHandler {
  static final String CHILDREN_LIMIT = "children_limit";
  private static final String FILE = "cgroup.max.descendants";

  private static final List<Field> FIELDS =
      List.of(
          new Field(
              CHILDREN_LIMIT,
              null,
              List.of(),
              List.of("cgroup.max.descendants"),
              ContainerSpec::childrenLimit));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  private static Optional<Hierarchy> unified(ContainerView view) {
    return view.fs().hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2)
        .findFirst();
  }

  @Override
  public void plan(ContainerSpec spec, Mode mode, ContainerView view, Planning out) {
    Long limit = spec.childrenLimit();
    if (limit == null && mode != Mode.REPLACE) {
      return;
    }
    Hierarchy unified = unified(view).orElse(null);
    if (limit == null && unified == null) { // a REPLACE where no cgroup2 is: nothing to reset
      return;
    }
    if (unified == null) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          CHILDREN_LIMIT + " needs cgroup v2's " + FILE + ", and no cgroup2 hierarchy is mounted");
    }
    out.writes.add(
        new FileWrite(unified, FILE, limit == null ? "max" : limit.toString(), CHILDREN_LIMIT));
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    if (!fields.contains(CHILDREN_LIMIT)) {
      out.childrenLimit(null);
      return;
    }
    String v = view.readSelf(unified(view).orElseThrow(), FILE);
    out.childrenLimit(v.equals("max") ? null : Units.number(v, FILE));
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.childrenLimit(spec.childrenLimit());
  }

  /**
   * A limit read as none ({@code max}) is not in the spec read back, so a DIFF to it would write
   * nothing.
   */
  @Override
  public void restoreUnset(
      ContainerSpec old, Set<String> touched, ContainerView view, List<FileWrite> out) {
    if (touched.contains(CHILDREN_LIMIT) && old.childrenLimit() == null) {
      unified(view).ifPresent(u -> out.add(new FileWrite(u, FILE, "max", CHILDREN_LIMIT)));
    }
  }
}
