package org.lmctfy.testing.junit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.internal.host.HostFacts;

/**
 * A scratch parent cgroup, {@code /lmctfy-test-<random>}, made in every hierarchy of a {@link
 * CgroupFs} (a v1 cpuset one gets the root's cpus and memory nodes) so that a test works only below
 * it; {@link #close()} removes it and everything the test left below it, deepest first, in every
 * hierarchy, and fails if anything stays.
 *
 * <p>{@link #onHost()} is the way to run a test on the real kernel: it needs root and writable
 * mounted cgroups. Where the kernel is not usable, the test is skipped with the reason.
 *
 * <pre>{@code
 * try (ScratchCgroups scratch = ScratchCgroups.onHost()) {
 *   CgroupPath job = scratch.path().resolve("job");
 *   scratch.fs().makeCgroup(memory, job);
 *   ...
 * }
 * }</pre>
 *
 * <p>Processes a test moved into the scratch cgroups must be gone before {@code close()}.
 */
public final class ScratchCgroups implements AutoCloseable {
  /** The prefix of every scratch cgroup; nothing else on a machine should carry it. */
  public static final String PREFIX = "lmctfy-test-";

  private final CgroupFs fs;
  private final CgroupPath path;
  private final List<Hierarchy> made = new ArrayList<>();

  private ScratchCgroups(CgroupFs fs, CgroupPath path) {
    this.fs = fs;
    this.path = path;
  }

  /**
   * Makes a scratch parent in every hierarchy of {@code fs}.
   *
   * @param fs the cgroup filesystem
   * @return the ScratchCgroups
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  public static ScratchCgroups on(CgroupFs fs) throws IOException {
    Objects.requireNonNull(fs, "fs");
    ScratchCgroups scratch =
        new ScratchCgroups(
            fs, CgroupPath.root().resolve(PREFIX + UUID.randomUUID().toString().substring(0, 12)));
    try {
      for (Hierarchy h : fs.hierarchies()) {
        fs.makeCgroup(h, scratch.path);
        scratch.made.add(h);
        if (h.has("cpuset") && h.version() == org.lmctfy.cgroupfs.CgroupVersion.V1) {
          // a v1 cpuset starts empty and could hold no process: give it the root's cpus and nodes
          for (String file : new String[] {"cpuset.cpus", "cpuset.mems"}) {
            fs.write(h, scratch.path, file, fs.read(h, CgroupPath.root(), file).strip());
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      try {
        scratch.close();
      } catch (IOException | RuntimeException | AssertionError cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    return scratch;
  }

  /**
   * Makes a scratch parent on the host's kernel, or skips the calling test when the kernel cannot
   * be used here ({@link #hostUnusableReason()}).
   *
   * @return the ScratchCgroups
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  public static ScratchCgroups onHost() throws IOException {
    return on(requireHost());
  }

  /**
   * The host's cgroups, for a test; skips the calling test, with the reason, when they cannot be
   * used here ({@link #hostUnusableReason()}).
   *
   * @return the host's cgroups
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  public static CgroupFs requireHost() throws IOException {
    String reason = hostUnusableReason();
    if (reason != null) {
      org.junit.jupiter.api.Assumptions.abort("kernel test skipped: " + reason);
    }
    return ContainerApi.hostCgroupFs();
  }

  /**
   * Why the host's cgroups cannot be used for tests (not root, nothing mounted, read-only,
   * unreadable), or null if they can.
   *
   * @return why the host's cgroups cannot be used for tests, or null if they can
   */
  public static String hostUnusableReason() {
    return HostFacts.read().unusable();
  }

  /**
   * The backend the scratch parent lives on.
   *
   * @return the backend the scratch parent lives on
   */
  public CgroupFs fs() {
    return fs;
  }

  /**
   * The scratch parent's path, the same in every hierarchy.
   *
   * @return the scratch parent's path, the same in every hierarchy
   */
  public CgroupPath path() {
    return path;
  }

  /**
   * The hierarchies the scratch parent was made in.
   *
   * @return the hierarchies the scratch parent was made in
   */
  public List<Hierarchy> hierarchies() {
    return List.copyOf(made);
  }

  /**
   * Removes the scratch parent and every cgroup below it, deepest first, in every hierarchy. Goes
   * on past a failure and then throws one exception with every failure attached.
   */
  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (Hierarchy h : made) {
      try {
        removeTree(h, path);
      } catch (IOException e) {
        if (failure == null) {
          failure =
              new IOException(
                  "could not remove the scratch cgroups " + path + " (remove them by hand)");
        }
        failure.addSuppressed(e);
      }
    }
    made.clear();
    if (failure != null) {
      throw failure;
    }
  }

  private void removeTree(Hierarchy h, CgroupPath p) throws IOException {
    if (!fs.exists(h, p)) {
      return;
    }
    for (String child : fs.children(h, p)) {
      removeTree(h, p.resolve(child));
    }
    IOException last = null;
    for (int attempt = 0; attempt < 50; attempt++) {
      try {
        fs.removeCgroup(h, p);
        return;
      } catch (CgroupFsException e) {
        last = e;
        if (e.errno() != org.lmctfy.cgroupfs.Errno.EBUSY) {
          throw e;
        }
        sleep(); // a killed process may still be leaving the cgroup
      }
    }
    throw last;
  }

  private static void sleep() throws IOException {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while removing scratch cgroups", e);
    }
  }

  @Override
  public String toString() {
    return "ScratchCgroups" + path + " on " + fs;
  }
}
