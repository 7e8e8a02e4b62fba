package org.lmctfy.internal.lock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.internal.lifecycle.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lock per cgroup, keyed by its absolute path (so that two APIs with different roots exclude
 * each other on one cgroup), held across threads of this JVM (a reentrant lock) and, when a lock
 * directory is given, across processes (a {@link Flock flock} on a file in it, which the kernel
 * drops when the holder dies, so a crash never leaves a lock behind). Callers take locks top-down
 * (parent before child), which keeps them free of deadlock. A wait ends at a deadline with
 * DEADLINE_EXCEEDED naming the container and, where the kernel says, the holder's pid.
 *
 * <p>The lock directory is made with mode 0700 (whatever the umask) where it is missing, and
 * refused (PERMISSION_DENIED) unless it is a real directory of this process's effective uid that
 * nobody else may write; lock files are checked as {@link Flock} says.
 *
 * <p>A lock file exists only while its lock is held: the holder removes it as it lets go, so no
 * file stays for a name, whether its operation succeeded or failed. One whose holder died stays
 * until {@link #sweep} (run by {@code cleanup()}) removes it, safely at any time (see {@link
 * Flock}).
 *
 * <p>A wait that passes {@link #PATIENCE} is logged at INFO, naming the container and the holder.
 */
public final class ContainerLocks {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerLocks.class);
  /** How long a wait goes on before it is logged. */
  static final long PATIENCE = TimeUnit.SECONDS.toNanos(1);

  private final Path directory;
  private final long deadlineNanos;
  private final Map<String, Entry> entries = new HashMap<>();
  private volatile boolean directoryChecked;

  private static final class Owned extends ReentrantLock {
    String holder() {
      Thread t = getOwner();
      return t == null ? "nobody now" : "thread \"" + t.getName() + "\" of this process (pid " + ProcessHandle.current().pid() + ")";
    }
  }

  private static final class Entry {
    final Owned lock = new Owned();
    int users;
    int fd = -1;
    Path file;
  }

  /**
   * @param directory where lock files go, or null for locks within this JVM only
   * @param deadline how long a lock is waited for before DEADLINE_EXCEEDED
   */
  public ContainerLocks(Path directory, Duration deadline) {
    this.directory = directory;
    this.deadlineNanos = deadline.toNanos();
  }

  /** Removes every lock file nobody holds; returns what could not be looked at or removed, as text. */
  public List<String> sweep() {
    List<String> failures = new ArrayList<>();
    if (directory == null || !Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
      return failures;
    }
    try {
      checkDirectory();
    } catch (IOException e) {
      failures.add("lock directory " + directory + ": " + e.getMessage());
      return failures;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.lock")) {
      for (Path file : files) {
        try {
          Flock.removeIfFree(file.toString());
        } catch (IOException e) {
          failures.add("lock file " + file + ": " + e.getMessage());
        }
      }
    } catch (IOException e) {
      failures.add("lock directory " + directory + ": " + e.getMessage());
    }
    return failures;
  }

  /** A held lock; closing it releases it. */
  public interface Held extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Blocks until this thread holds the lock of the cgroup at absolute path {@code key}, at most
   * until the deadline; {@code container} names it in messages.
   */
  public Held lock(String key, String container) {
    return lock(key, container, true);
  }

  /**
   * {@link #lock}, across the threads of this JVM only: no lock file, so a reader without write
   * access to the lock directory (or where none exists yet) makes nothing. For reads, which must
   * not see a write of this JVM half-done and need not exclude other processes.
   */
  public Held lockWithinProcess(String key, String container) {
    return lock(key, container, false);
  }

  private Held lock(String key, String container, boolean acrossProcesses) {
    Entry entry;
    synchronized (entries) {
      entry = entries.computeIfAbsent(key, k -> new Entry());
      entry.users++;
    }
    long deadline = 0; // the clock is read only where someone holds the lock or a lock file is next
    boolean waited = false;
    try {
      if (!entry.lock.tryLock()) {
        deadline = System.nanoTime() + deadlineNanos;
        waited = true;
        if (!entry.lock.tryLock(Math.min(PATIENCE, deadlineNanos), TimeUnit.NANOSECONDS)) {
          long left = deadline - System.nanoTime();
          if (left > 0) {
            LOG.info("waiting for the lock of container {} (cgroup {}), held by {}; giving up after {}", container,
                key, entry.lock.holder(), Duration.ofNanos(deadlineNanos));
          }
          if (left <= 0 || !entry.lock.tryLock(left, TimeUnit.NANOSECONDS)) {
            throw timedOut(container, key, entry.lock.holder());
          }
        }
      }
    } catch (InterruptedException e) {
      forget(key, entry);
      Thread.currentThread().interrupt();
      throw new LmctfyException(ErrorCode.ABORTED, "interrupted while waiting for the lock of container " + container, e);
    } catch (LmctfyException e) {
      forget(key, entry);
      throw e;
    }
    try {
      if (directory != null && acrossProcesses && entry.lock.getHoldCount() == 1) {
        lockFile(key, container, entry, waited ? deadline : System.nanoTime() + deadlineNanos);
      }
    } catch (RuntimeException e) {
      release(container, key, entry);
      throw e;
    }
    return () -> release(container, key, entry);
  }

  private LmctfyException timedOut(String container, String key, String holder) {
    return new LmctfyException(ErrorCode.DEADLINE_EXCEEDED, "container " + container + " (cgroup " + key
        + "): its lock was not free within " + Duration.ofNanos(deadlineNanos) + "; held by " + holder);
  }

  private void lockFile(String key, String container, Entry entry, long deadline) {
    Path file = directory.resolve(fileName(key));
    try {
      checkDirectory();
      long[] holder = new long[1];
      long patience = Math.min(deadline, System.nanoTime() + PATIENCE);
      try {
        entry.fd = Flock.lock(file.toString(), patience, holder);
      } catch (CgroupFsException e) {
        if (e.errno() != Errno.ENOENT) {
          throw e;
        }
        directoryChecked = false; // the directory went (/run was cleared): make it again
        checkDirectory();
        entry.fd = Flock.lock(file.toString(), patience, holder);
      }
      if (entry.fd < 0 && deadline - System.nanoTime() > 0) {
        LOG.info("waiting for the lock of container {} (cgroup {}), held by {} (lock file {}); giving up after {}",
            container, key, holder[0] > 0 ? "process " + holder[0] : "another process", file,
            Duration.ofNanos(deadlineNanos));
        entry.fd = Flock.lock(file.toString(), deadline, holder);
      }
      entry.file = file;
      if (entry.fd < 0) {
        throw timedOut(container, key, holder[0] > 0 ? "process " + holder[0] + " (lock file " + file + ")"
            : "a process the kernel does not name (lock file " + file + ")");
      }
    } catch (IOException e) {
      throw Errors.of("cannot lock container " + container + " with lock file " + file, e);
    }
  }

  /**
   * Makes the lock directory where missing (mode 0700) and refuses one that is not a directory of
   * this uid, or that others may write.
   */
  private void checkDirectory() throws IOException {
    if (directoryChecked) {
      return;
    }
    if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
      makeDirectories(directory); // the first lock on this machine, or /run was cleared
    }
    Map<String, Object> a = Files.readAttributes(directory, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) a.get("mode");
    int uid = (Integer) a.get("uid");
    int self = Flock.geteuid();
    if ((mode & 0170000) != Flock.S_IFDIR || uid != self || (mode & 022) != 0) {
      throw new CgroupFsException(Operation.STAT, directory.toString(), null, Errno.EACCES,
          "a lock directory must be a directory of uid " + self + " that nobody else may write; it has mode "
          + Integer.toOctalString(mode) + " and uid " + uid);
    }
    directoryChecked = true;
  }

  /** Makes {@code dir} and its missing parents, each with mode 0700. */
  private static void makeDirectories(Path dir) throws IOException {
    Path parent = dir.getParent();
    if (parent != null && !Files.exists(parent, LinkOption.NOFOLLOW_LINKS)) {
      makeDirectories(parent);
    }
    Flock.makeDirectory(dir.toString(), 0700);
  }

  private void release(String container, String key, Entry entry) {
    try {
      if (entry.lock.getHoldCount() == 1 && entry.fd >= 0) {
        int fd = entry.fd;
        entry.fd = -1;
        try {
          Flock.unlockAndRemove(entry.file.toString(), fd);
        } catch (IOException e) {
          // the lock is let go; the file stays (a later holder reuses it, cleanup() removes it)
          LOG.warn("container {}: could not remove its lock file after letting go of it: {}", container, e.getMessage());
        }
      }
    } catch (com.sun.jna.LastErrorException e) {
      throw new LmctfyException(ErrorCode.INTERNAL, "cannot release the lock file of " + container + ": "
          + Errno.of(e.getErrorCode()), e);
    } finally {
      entry.lock.unlock();
      forget(key, entry);
    }
  }

  private void forget(String key, Entry entry) {
    synchronized (entries) {
      if (--entry.users == 0) {
        entries.remove(key);
      }
    }
  }

  /** A file name for a cgroup path: {@code %}-escaped slashes, or a hash when too long. */
  public static String fileName(String key) {
    String escaped = key.replace("%", "%25").replace("/", "%2F");
    if (escaped.length() <= 200) {
      return escaped + ".lock";
    }
    try {
      byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return "sha256-" + java.util.HexFormat.of().formatHex(digest) + ".lock";
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError("every Java platform has SHA-256", e);
    }
  }
}
