package org.lmctfy.internal.resources;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.spec.ContainerSpec;

/**
 * owner / owner_group: delegation. The container's directory in every managed hierarchy and the
 * files a delegate writes change owner: {@code cgroup.procs} and {@code tasks} on v1; on v2 {@code
 * cgroup.procs}, {@code cgroup.threads}, {@code cgroup.subtree_control} and the files the kernel
 * lists in {@code /sys/kernel/cgroup/delegate} ({@code memory.oom.group}, {@code memory.reclaim}),
 * where they exist. REPLACE without them gives ownership back to the parent directory's owner.
 */
final class OwnerHandler implements ResourceHandler {
  static final List<String> V1_FILES = List.of("cgroup.procs", "tasks");
  static final List<String> V2_FILES =
      List.of(
          "cgroup.procs",
          "cgroup.threads",
          "cgroup.subtree_control",
          "memory.oom.group",
          "memory.reclaim");

  static final String OWNER = "owner";
  static final String OWNER_GROUP = "owner_group";

  private static final List<Field> FIELDS =
      List.of(
          new Field(OWNER, null, List.of(), List.of(), ContainerSpec::owner),
          new Field(OWNER_GROUP, null, List.of(), List.of(), ContainerSpec::ownerGroup));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  @Override
  public void plan(ContainerSpec spec, Mode mode, ContainerView view, Planning planning) {
    Long owner = spec.owner();
    Long group = spec.ownerGroup();
    List<Hierarchy> managed = view.managed();
    List<Chown> out = planning.chowns;
    if (owner == null && group == null && mode != Mode.REPLACE) {
      return;
    }
    Owner parent =
        mode == Mode.REPLACE && (owner == null || group == null)
            ? parentOwner(view, managed.get(0))
            : null;
    int uid = owner != null ? owner.intValue() : parent != null ? parent.uid() : -1;
    int gid = group != null ? group.intValue() : parent != null ? parent.gid() : -1;
    String field = owner != null ? "owner" : "owner_group";
    for (Hierarchy h : managed) {
      out.add(new Chown(h, null, uid, gid, field));
      for (String file : ContainerView.isV2(h) ? V2_FILES : V1_FILES) {
        out.add(new Chown(h, file, uid, gid, field));
      }
    }
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    Long[] owner = read(view, view.managed().get(0), fields);
    out.owner(owner[0]).ownerGroup(owner[1]);
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.owner(spec.owner()).ownerGroup(spec.ownerGroup());
  }

  private static Owner parentOwner(ContainerView view, Hierarchy anchor) {
    try {
      return view.fs().owner(anchor, view.parent(), null);
    } catch (IOException e) {
      throw Errors.of("cannot read the owner of the parent", e);
    }
  }

  /** {@code [owner, owner_group]} as the fields ask, each null when not asked. */
  static Long[] read(ContainerView view, Hierarchy anchor, Set<String> fields) {
    if (!fields.contains("owner") && !fields.contains("owner_group")) {
      return new Long[2];
    }
    try {
      Owner o = view.fs().owner(anchor, view.self(), null);
      return new Long[] {
        fields.contains("owner") ? (long) o.uid() : null,
        fields.contains("owner_group") ? (long) o.gid() : null
      };
    } catch (IOException e) {
      throw Errors.of("cannot read the owner of " + view.self(), e);
    }
  }

  /** Whether {@code c} applies: a delegate file the cgroup does not have is skipped. */
  static boolean applies(Chown c, ContainerView view, CgroupPath path) throws IOException {
    return c.file() == null || view.fs().hasFile(c.hierarchy(), path, c.file());
  }
}
