package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.lmctfy.internal.codec.SpecCodec;

/**
 * How {@link org.lmctfy.ContainerApi#initMachine} prepares a machine.
 *
 * <p>Controller names are the kernel's ({@code "cpu"}, {@code "memory"}, {@code "devices"});
 * lmctfy's {@code CgroupHierarchy} names ({@code CGROUP_CPU}, {@code CGROUP_DEVICE}) are accepted
 * too and mapped to them.
 *
 * <pre>{@code
 * api.initMachine(InitSpec.parse("cgroup_mount { mount_path: \"/sys/fs/cgroup/cpu\""
 *     + " hierarchy: CGROUP_CPU hierarchy: CGROUP_CPUACCT }"));
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param cgroupMounts {@code cgroup_mount}: v1 hierarchies to mount when not mounted: each a mount
 *     point and the controllers to co-mount there (lmctfy's {@code cgroup_mount}); never null
 * @param enableControllers {@code enable_controllers}: v2 controllers to enable in the container
 *     root's {@code cgroup.subtree_control}, for its containers; the root's parent must give them
 *     (nothing above the API's root is touched); never null
 * @param processesLeaf {@code processes_leaf}: the name of a child cgroup of the container root
 *     into which every process in the root cgroup is moved before controllers are enabled there (a
 *     cgroup with processes cannot enable controllers for its children on v2; systemd's delegation
 *     documentation asks a delegated manager to move itself into such a leaf), made if missing;
 *     {@code null}: no process is moved, and a root with processes is FAILED_PRECONDITION naming
 *     them. A cgroup name component, not a container: it holds the manager's processes, and {@code
 *     create} of that name is refused as a cgroup lmctfy did not make
 * @since 0.1
 */
public record InitSpec(
    @JsonProperty("cgroup_mount") List<CgroupMount> cgroupMounts,
    @JsonProperty("enable_controllers") Set<String> enableControllers,
    @JsonProperty("processes_leaf") @Nullable String processesLeaf) {

  /** lmctfy's {@code CgroupHierarchy} names whose kernel name is not the lower-cased suffix. */
  private static final Map<String, String> LMCTFY_NAMES =
      Map.of(
          "CGROUP_DEVICE", "devices",
          "CGROUP_BLOCKIO", "blkio",
          "CGROUP_NET", "net_cls");

  /**
   * One v1 mount: lmctfy's {@code cgroup_mount { mount_path: ... hierarchy: ... }}.
   *
   * @param mountPath {@code mount_path}: the absolute mount point; required
   * @param hierarchy {@code hierarchy}: the controllers to co-mount there, at least one
   */
  public record CgroupMount(
      @JsonProperty("mount_path") String mountPath,
      @JsonProperty("hierarchy") Set<String> hierarchy) {
    /** Validates the path, maps lmctfy's controller names and copies the set. */
    public CgroupMount {
      Checks.required(mountPath, "cgroup_mount[].mount_path");
      if (!mountPath.startsWith("/")) {
        throw Checks.invalid("cgroup_mount[].mount_path", mountPath, "must be an absolute path");
      }
      hierarchy = controllers(hierarchy, "cgroup_mount[].hierarchy");
      if (hierarchy.isEmpty()) {
        throw Checks.problem("cgroup_mount[].hierarchy", "at least one controller is required");
      }
    }
  }

  /** Maps lmctfy's controller names, copies the list and set, and checks the leaf's name. */
  public InitSpec {
    cgroupMounts = cgroupMounts == null ? List.of() : List.copyOf(cgroupMounts);
    enableControllers = controllers(enableControllers, "enable_controllers");
    if (processesLeaf != null && !processesLeaf.matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}")) {
      throw Checks.invalid(
          "processes_leaf",
          processesLeaf,
          "must be one cgroup name: letters, digits, '_', '-', '.', starting with a letter, digit or '_'");
    }
  }

  /** Changes nothing: only checks that the host's cgroups can be opened. */
  public static InitSpec empty() {
    return new InitSpec(List.of(), Set.of(), null);
  }

  /**
   * Reads an init spec from lmctfy's text format or JSON; blank text is {@link #empty()}.
   *
   * @throws org.lmctfy.LmctfyException INVALID_ARGUMENT naming the field and the bad value
   */
  public static InitSpec parse(String text) {
    return SpecCodec.parse(text, InitSpec.class, "init spec");
  }

  private static Set<String> controllers(Set<String> names, String field) {
    if (names == null) {
      return Set.of();
    }
    return names.stream()
        .map(name -> controller(name, field))
        .collect(Collectors.toUnmodifiableSet());
  }

  private static String controller(String name, String field) {
    if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw Checks.invalid(field, name, "must be a controller name such as \"cpu\" or CGROUP_CPU");
    }
    if (name.startsWith("CGROUP_")) {
      return LMCTFY_NAMES.getOrDefault(name, name.substring(7).toLowerCase(Locale.ROOT));
    }
    return name;
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this spec's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder()
        .cgroupMounts(cgroupMounts)
        .enableControllers(enableControllers)
        .processesLeaf(processesLeaf);
  }

  /**
   * Builds a {@link InitSpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private List<CgroupMount> cgroupMounts = List.of();
    private Set<String> enableControllers = Set.of();
    private @Nullable String processesLeaf;

    private Builder() {}

    /** Sets {@code cgroup_mount}. */
    public Builder cgroupMounts(List<CgroupMount> cgroupMounts) {
      this.cgroupMounts = cgroupMounts;
      return this;
    }

    /** Sets {@code enable_controllers}. */
    public Builder enableControllers(Set<String> enableControllers) {
      this.enableControllers = enableControllers;
      return this;
    }

    /** Sets {@code processes_leaf}. */
    public Builder processesLeaf(@Nullable String processesLeaf) {
      this.processesLeaf = processesLeaf;
      return this;
    }

    /** The spec; validates it as the record's constructor does. */
    public InitSpec build() {
      return new InitSpec(cgroupMounts, enableControllers, processesLeaf);
    }
  }
}
