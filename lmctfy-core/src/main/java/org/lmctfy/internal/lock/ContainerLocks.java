package org.lmctfy.internal.lock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.libc.Libc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One lock per cgroup, keyed by its absolute path (so that two APIs with different roots exclude
 * each other on one cgroup), held across threads of this JVM (a reentrant lock) and, when a lock
 * directory is given, across processes: a byte of the directory's one {@link LockFile}, at an
 * offset hashed from the path, locked with an open-file-description lock that the kernel drops when
 * the holder dies, so a crash never leaves a lock behind. Two paths whose hashes meet share a lock
 * (62 bits: never seen in practice, and it would only make them take turns). Callers take locks
 * top-down (parent before child), which keeps them free of deadlock.
 *
 * <p>Costs: a lock and its release are one {@code fcntl} each; the lock file is opened and checked
 * at the first lock that needs it, held open until {@link #close()}, and looked at again (is it
 * still linked?) at most once a second, so that a lock directory cleared under a running program is
 * made again rather than locking a file nobody else sees. The directory is made with mode 0700
 * (whatever the umask) where it is missing, and refused (PERMISSION_DENIED) unless it is a real
 * directory of this process's effective uid that nobody else may write. An API that only reads
 * never locks, so it makes no directory and opens no file.
 *
 * <p>A wait ends at the deadline with DEADLINE_EXCEEDED naming the container and the holder; one
 * that passes {@link #PATIENCE} is logged at INFO.
 */
public final class ContainerLocks implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerLocks.class);

  /** How long a wait goes on before it is logged. */
  static final long PATIENCE = TimeUnit.SECONDS.toNanos(1);

  private static final long RECHECK = TimeUnit.SECONDS.toNanos(1);

  /** The lock file's name in the lock directory. */
  public static final String FILE = LockFile.NAME;

  private final Path directory;
  private final long deadlineNanos;
  private final Map<Long, Entry> entries = new HashMap<>();
  private final Object fileLock = new Object();
  private LockFile file; // guarded by fileLock
  private final java.util.List<LockFile> retired =
      new java.util.ArrayList<>(); // guarded by fileLock
  private long checkedAt; // guarded by fileLock

  private static final class Owned extends ReentrantLock {
    String holder() {
      Thread t = getOwner();
      return t == null
          ? "nobody now"
          : "thread \""
              + t.getName()
              + "\" of this process (pid "
              + ProcessHandle.current().pid()
              + ")";
    }
  }

  private static final class Entry {
    final Owned lock = new Owned();
    int users;
    LockFile locked; // the file whose byte this JVM holds, while it does
  }

  /**
   * @param directory where the lock file goes, or null for locks within this JVM only
   * @param deadline how long a lock is waited for before DEADLINE_EXCEEDED
   */
  public ContainerLocks(Path directory, Duration deadline) {
    this.directory = directory;
    this.deadlineNanos = deadline.toNanos();
  }

  /** A held lock; closing it releases it. */
  public interface Held extends AutoCloseable {
    @Override
    void close();
  }

  /** Where the lock of {@code key} is in the lock file: a hash of the key, below 2^62. */
  static long offsetOf(String key) {
    long h = 0xcbf29ce484222325L; // FNV-1a, 64 bits, over the UTF-16 units
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      h = (h ^ (c & 0xff)) * 0x100000001b3L;
      h = (h ^ (c >>> 8)) * 0x100000001b3L;
    }
    return h & 0x3fffffffffffffffL;
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
    long offset = offsetOf(key);
    Entry entry;
    synchronized (entries) {
      entry = entries.computeIfAbsent(offset, k -> new Entry());
      entry.users++;
    }
    long deadline = 0; // the clock is read only where someone holds the lock or the file is next
    boolean waited = false;
    try {
      if (!entry.lock.tryLock()) {
        deadline = System.nanoTime() + deadlineNanos;
        waited = true;
        if (!entry.lock.tryLock(Math.min(PATIENCE, deadlineNanos), TimeUnit.NANOSECONDS)) {
          long left = deadline - System.nanoTime();
          if (left > 0) {
            LOG.info(
                "waiting for the lock of container {} (cgroup {}), held by {}; giving up after {}",
                container,
                key,
                entry.lock.holder(),
                Duration.ofNanos(deadlineNanos));
          }
          if (left <= 0 || !entry.lock.tryLock(left, TimeUnit.NANOSECONDS)) {
            throw timedOut(container, key, entry.lock.holder());
          }
        }
      }
    } catch (InterruptedException e) {
      forget(offset, entry);
      Thread.currentThread().interrupt();
      throw new LmctfyException(
          ErrorCode.ABORTED, "interrupted while waiting for the lock of container " + container, e);
    } catch (LmctfyException e) {
      forget(offset, entry);
      throw e;
    }
    try {
      if (directory != null && acrossProcesses && entry.lock.getHoldCount() == 1) {
        entry.locked =
            lockFile(offset, key, container, waited ? deadline : System.nanoTime() + deadlineNanos);
      }
    } catch (RuntimeException e) {
      release(container, offset, entry);
      throw e;
    }
    return () -> release(container, offset, entry);
  }

  private LmctfyException timedOut(String container, String key, String holder) {
    return new LmctfyException(
        ErrorCode.DEADLINE_EXCEEDED,
        "container "
            + container
            + " (cgroup "
            + key
            + "): its lock was not free within "
            + Duration.ofNanos(deadlineNanos)
            + "; held by "
            + holder);
  }

  /**
   * Takes the byte at {@code offset} of the lock file, polling until the deadline; the file locked.
   */
  private LockFile lockFile(long offset, String key, String container, long deadline) {
    LockFile f = null;
    try {
      f = file();
      long start = System.nanoTime();
      long pause = 1;
      boolean told = false;
      while (!f.tryLock(offset)) {
        long now = System.nanoTime();
        if (now - deadline >= 0) {
          throw timedOut(container, key, f.holder(offset) + " (lock file " + f.path() + ")");
        }
        if (!told && now - start >= PATIENCE) {
          told = true;
          LOG.info(
              "waiting for the lock of container {} (cgroup {}), held by {} (lock file {}); giving up after {}",
              container,
              key,
              f.holder(offset),
              f.path(),
              Duration.ofNanos(deadlineNanos));
        }
        Thread.sleep(Math.max(1, Math.min(pause, (deadline - now) / 1_000_000)));
        pause = Math.min(pause * 2, 20);
      }
      return f;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LmctfyException(
          ErrorCode.ABORTED, "interrupted while waiting for the lock of container " + container, e);
    } catch (IOException e) {
      throw Errors.of(
          "cannot lock container "
              + container
              + " with lock file "
              + (f != null ? f.path() : directory.resolve(LockFile.NAME)),
          e);
    }
  }

  /**
   * The lock file, opened at first use and again if it was unlinked (looked at once a second at
   * most).
   */
  private LockFile file() throws IOException {
    synchronized (fileLock) {
      long now = System.nanoTime();
      if (file != null && now - checkedAt < RECHECK) {
        return file;
      }
      if (file != null && !file.removed()) {
        checkedAt = now;
        return file;
      }
      // first use, or the file went (its directory was cleared): make and check the directory, open
      // it
      checkDirectory();
      LockFile opened = LockFile.open(directory);
      if (file != null) {
        retired.add(file); // unlinked: its locks are let go as usual, it is closed with this
      }
      file = opened;
      checkedAt = now;
      return opened;
    }
  }

  /**
   * Makes the lock directory where missing (mode 0700) and refuses one that is not a directory of
   * this uid, or that others may write.
   */
  private void checkDirectory() throws IOException {
    if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
      makeDirectories(directory); // the first lock on this machine, or /run was cleared
    }
    Map<String, Object> a =
        Files.readAttributes(directory, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
    int mode = (Integer) a.get("mode");
    int uid = (Integer) a.get("uid");
    int self = Libc.geteuid();
    if ((mode & 0170000) != Libc.S_IFDIR || uid != self || (mode & 022) != 0) {
      throw new CgroupFsException(
          Operation.STAT,
          directory.toString(),
          null,
          Errno.EACCES,
          "a lock directory must be a directory of uid "
              + self
              + " that nobody else may write; it has mode "
              + Integer.toOctalString(mode)
              + " and uid "
              + uid);
    }
  }

  /** Makes {@code dir} and its missing parents, each with mode 0700. */
  private static void makeDirectories(Path dir) throws IOException {
    Path parent = dir.getParent();
    if (parent != null && !Files.exists(parent, LinkOption.NOFOLLOW_LINKS)) {
      makeDirectories(parent);
    }
    LockFile.makeDirectory(dir.toString(), 0700);
  }

  private void release(String container, long offset, Entry entry) {
    try {
      if (entry.lock.getHoldCount() == 1 && entry.locked != null) {
        LockFile f = entry.locked;
        entry.locked = null;
        f.unlock(offset);
      }
    } catch (CgroupFsException | com.sun.jna.LastErrorException e) {
      throw new LmctfyException(
          ErrorCode.INTERNAL, "cannot release the lock of " + container + ": " + e.getMessage(), e);
    } finally {
      entry.lock.unlock();
      forget(offset, entry);
    }
  }

  private void forget(long offset, Entry entry) {
    synchronized (entries) {
      if (--entry.users == 0) {
        entries.remove(offset);
      }
    }
  }

  /** Closes the lock file, letting go of every lock still held through it. */
  @Override
  public void close() {
    synchronized (fileLock) {
      if (file != null) {
        file.close();
        file = null;
      }
      retired.forEach(LockFile::close);
      retired.clear();
    }
  }
}
