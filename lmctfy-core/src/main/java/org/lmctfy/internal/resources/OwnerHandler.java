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

  @Override
  public List<Field> fields() {
    return List.of(
        new Field(OWNER, null, List.of(), List.of(), ContainerSpec::owner),
        new Field(OWNER_GROUP, null, List.of(), List.of(), ContainerSpec::ownerGroup));
  }

  @Override
  public void plan(ContainerSpec spec, Mode mode, Host host, Planning out) {
    plan(spec.owner(), spec.ownerGroup(), mode, host, host.managed(), out.chowns);
  }

  @Override
  public void read(Host host, Set<String> fields, ContainerSpec.Builder out) {
    Long[] owner = read(host, host.managed().get(0), fields);
    out.owner(owner[0]).ownerGroup(owner[1]);
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, Host host, ContainerSpec.Builder out) {
    out.owner(spec.owner()).ownerGroup(spec.ownerGroup());
  }

  static void plan(
      Long owner, Long group, Mode mode, Host host, List<Hierarchy> managed, List<Chown> out) {
    if (owner == null && group == null && mode != Mode.REPLACE) {
      return;
    }
    Owner parent =
        mode == Mode.REPLACE && (owner == null || group == null)
            ? parentOwner(host, managed.get(0))
            : null;
    int uid = owner != null ? owner.intValue() : parent != null ? parent.uid() : -1;
    int gid = group != null ? group.intValue() : parent != null ? parent.gid() : -1;
    String field = owner != null ? "owner" : "owner_group";
    for (Hierarchy h : managed) {
      out.add(new Chown(h, null, uid, gid, field));
      for (String file : Host.isV2(h) ? V2_FILES : V1_FILES) {
        out.add(new Chown(h, file, uid, gid, field));
      }
    }
  }

  private static Owner parentOwner(Host host, Hierarchy anchor) {
    try {
      return host.fs().owner(anchor, host.parent(), null);
    } catch (IOException e) {
      throw Errors.of("cannot read the owner of the parent", e);
    }
  }

  /** {@code [owner, owner_group]} as the fields ask, each null when not asked. */
  static Long[] read(Host host, Hierarchy anchor, Set<String> fields) {
    if (!fields.contains("owner") && !fields.contains("owner_group")) {
      return new Long[2];
    }
    try {
      Owner o = host.fs().owner(anchor, host.self(), null);
      return new Long[] {
        fields.contains("owner") ? (long) o.uid() : null,
        fields.contains("owner_group") ? (long) o.gid() : null
      };
    } catch (IOException e) {
      throw Errors.of("cannot read the owner of " + host.self(), e);
    }
  }

  /** Whether {@code c} applies: a delegate file the cgroup does not have is skipped. */
  static boolean applies(Chown c, Host host, CgroupPath path) throws IOException {
    return c.file() == null || host.fs().hasFile(c.hierarchy(), path, c.file());
  }
}
