package org.lmctfy.vhost;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a backend makes a virtual host of: its namespaces, its root, what is bound into it, and its
 * init. The library makes one from a container spec's {@code virtual_host} and {@code filesystem}
 * sections, whose rules it checks first (only a loopback network, no private mounts, absolute paths
 * inside); a backend checks what it finds on the machine ({@link VirtualHosts#check}) and names the
 * spec's fields when it refuses ({@code filesystem.rootfs}, {@code
 * filesystem.mounts.mount[i].source}, {@code virtual_host.init.init_argv[0]}), the terms the caller
 * wrote.
 *
 * <pre>{@code
 * Blueprint vh = new Blueprint("vh", true, null,
 *     List.of(new Blueprint.Bind("/srv/data", "/data", true)), Blueprint.Init.DEFAULT);
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param hostname the host name of its own uts namespace, or null to share the caller's
 * @param ownNetwork whether it has a network namespace of its own (a loopback device only)
 * @param rootfs the host directory that is its root, or null for the host's {@code /}
 * @param binds the host files and directories bound into it, in order
 * @param init its init, pid 1 inside
 * @since 0.2
 */
public record Blueprint(
    @Nullable String hostname,
    boolean ownNetwork,
    @Nullable String rootfs,
    List<Bind> binds,
    Init init) {

  /**
   * Copies the binds.
   *
   * @param hostname the host name, or null
   * @param ownNetwork whether it has its own network namespace
   * @param rootfs its root, or null
   * @param binds what is bound into it
   * @param init its init
   */
  public Blueprint {
    binds = List.copyOf(binds);
    Objects.requireNonNull(init, "init");
  }

  /**
   * A host file or directory bound into the virtual host.
   *
   * @param source its absolute path on the host
   * @param target the absolute path inside, which must exist there (nothing is made)
   * @param readOnly whether it is bound read-only
   */
  public record Bind(String source, String target, boolean readOnly) {
    /**
     * Checks that the paths are given.
     *
     * @param source the host's path
     * @param target the path inside
     * @param readOnly whether read-only
     */
    public Bind {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(target, "target");
    }
  }

  /**
   * The virtual host's init: its program and what it starts with. Its directory is a path inside;
   * its redirected files are the host's.
   *
   * @param argv the program and its arguments; empty for the backend's own init, which reaps
   *     orphans and waits for ever (catatonit on the kernel)
   * @param environment its whole environment, or null for the caller's
   * @param directory its working directory, an absolute path inside
   * @param stdin the host file it reads, or null for nothing ({@code /dev/null})
   * @param stdout the host file its output is appended to, or null to discard it
   * @param stderr the host file its errors are appended to, or null to keep them for the message of
   *     a start that fails
   */
  public record Init(
      List<String> argv,
      @Nullable Map<String, String> environment,
      String directory,
      @Nullable String stdin,
      @Nullable String stdout,
      @Nullable String stderr) {

    /** The backend's own init, in {@code /}, with the caller's environment. */
    public static final Init DEFAULT = new Init(List.of(), null, "/", null, null, null);

    /**
     * Copies the argv and the environment.
     *
     * @param argv the program, or empty
     * @param environment the environment, or null
     * @param directory the directory inside
     * @param stdin the stdin file, or null
     * @param stdout the stdout file, or null
     * @param stderr the stderr file, or null
     */
    public Init {
      argv = List.copyOf(argv);
      environment = environment == null ? null : Map.copyOf(environment);
      Objects.requireNonNull(directory, "directory");
    }
  }
}
