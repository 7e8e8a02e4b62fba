package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A virtual host's filesystem: lmctfy's {@code filesystem} section, its root and its mounts. It
 * applies only together with a {@link VirtualHostSpec} (a spec with {@code filesystem} and no
 * {@code virtual_host} is INVALID_ARGUMENT), in the virtual host's own mount namespace: nothing of
 * it is ever mounted in the host's, and it all goes when the container does.
 *
 * <pre>{@code
 * ContainerSpec spec = ContainerSpec.parse("virtual_host {} filesystem { rootfs: '/srv/vh'"
 *     + " mounts { mount { source: '/srv/data' target: '/data' read_only: true } } }");
 * FilesystemSpec same = FilesystemSpec.builder()
 *     .rootfs("/srv/vh")
 *     .mounts(new FilesystemSpec.Mounts(List.of(new FilesystemSpec.Mount("/srv/data", "/data", true, null))))
 *     .build();
 * }</pre>
 *
 * <p>Without {@code rootfs} the virtual host sees the host's files (with its own {@code /proc});
 * with it, the directory is its {@code /} (bound read-write), with a {@code /proc} and a minimal
 * {@code /dev} of its own (null, zero, full, random, urandom, tty, a pts instance and shm), so the
 * directory needs {@code /proc} and {@code /dev} directories. Every mount is a bind mount, {@code
 * nosuid} (as lmctfy's) and {@code nodev}, and a slave of the host's: mounts the host makes below a
 * source later appear inside, none made inside reaches the host. Mount points are never created: a
 * target that does not exist in the virtual host's root is INVALID_ARGUMENT.
 *
 * <p>Immutable and thread-safe.
 *
 * @param rootfs {@code rootfs}: the host directory that is the virtual host's root, an absolute
 *     path; absent = the host's root
 * @param mounts {@code mounts}: host paths bound into the virtual host, in order
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FilesystemSpec(
    @JsonProperty("rootfs") @Nullable String rootfs,
    @JsonProperty("mounts") @Nullable Mounts mounts) {

  /** Checks that the root is an absolute path. */
  public FilesystemSpec {
    if (rootfs != null) {
      checkPath(rootfs, "filesystem.rootfs", true);
    }
  }

  /** The mounts in this spec, in order; empty if none. */
  public List<Mount> mountList() {
    return mounts == null ? List.of() : mounts.mount();
  }

  /**
   * lmctfy's {@code containers.Mounts}: the list of mounts.
   *
   * @param mount {@code mount}: each mount, repeated; never null
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Mounts(
      @JsonProperty("mount") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Mount> mount) {
    /** Copies the list. */
    public Mounts {
      mount = mount == null ? List.of() : List.copyOf(mount);
    }
  }

  /**
   * One bind mount of a host path into the virtual host.
   *
   * @param source {@code source}: the host path bound, absolute; required
   * @param target {@code target}: where it appears inside the virtual host, relative to its root
   *     ({@code data} and {@code /data} are the same place); required, no {@code ..} component
   * @param readOnly {@code read_only}: bound read-only (a write is EROFS); absent = read-write
   * @param isPrivate {@code private}: lmctfy's private propagation; bubblewrap makes every mount a
   *     slave of the host's, so {@code create} refuses {@code private: true} (UNIMPLEMENTED)
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Mount(
      @JsonProperty("source") String source,
      @JsonProperty("target") String target,
      @JsonProperty("read_only") @Nullable Boolean readOnly,
      @JsonProperty("private") @Nullable Boolean isPrivate) {

    /** Checks both paths. */
    public Mount {
      Checks.required(source, "filesystem.mounts.mount[].source");
      Checks.required(target, "filesystem.mounts.mount[].target");
      checkPath(source, "filesystem.mounts.mount[].source", true);
      checkPath(target, "filesystem.mounts.mount[].target", false);
    }

    /** The target as an absolute path inside the virtual host ({@code data} is {@code /data}). */
    public String insidePath() {
      return target.startsWith("/") ? target : "/" + target;
    }
  }

  private static void checkPath(String path, String field, boolean absolute) {
    if (path.isEmpty() || path.indexOf('\0') >= 0) {
      throw Checks.invalid(field, path, "must be a non-empty path without NUL");
    }
    if (absolute && !path.startsWith("/")) {
      throw Checks.invalid(field, path, "must be an absolute path");
    }
    for (String c : path.split("/")) {
      if (c.equals("..")) {
        throw Checks.invalid(field, path, "must not contain '..'");
      }
    }
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder().rootfs(rootfs).mounts(mounts);
  }

  /**
   * Builds a {@link FilesystemSpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable String rootfs;
    private @Nullable Mounts mounts;

    private Builder() {}

    /** Sets {@code rootfs}. */
    public Builder rootfs(@Nullable String rootfs) {
      this.rootfs = rootfs;
      return this;
    }

    /** Sets {@code mounts}. */
    public Builder mounts(@Nullable Mounts mounts) {
      this.mounts = mounts;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public FilesystemSpec build() {
      return new FilesystemSpec(rootfs, mounts);
    }
  }
}
