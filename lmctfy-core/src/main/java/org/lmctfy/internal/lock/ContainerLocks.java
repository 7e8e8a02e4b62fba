package org.lmctfy.internal.lock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.internal.lifecycle.Errors;
import com.sun.jna.LastErrorException;

/**
 * One lock per container name, held across threads of this JVM (a reentrant lock) and, when a
 * lock directory is given, across processes (a {@link Flock flock} on a file in it, which the
 * kernel drops when the holder dies, so a crash never leaves a lock behind). Callers take locks top-down
 * (parent before child), which keeps them free of deadlock.
 *
 * <p>Lock files are empty and stay after their lock is let go (creating and removing one per
 * operation would cost more than the rest of a create's locking); {@link #sweep} removes those
 * nobody holds, safely at any time (see {@link Flock}), so that a scheduler making millions of
 * uniquely named containers need not leave a file per name on {@code /run} until the next boot.
 */
public final class ContainerLocks {
  private final Path directory;
  private final Map<String, Entry> entries = new HashMap<>();

  private static final class Entry {
    final ReentrantLock lock = new ReentrantLock();
    int users;
    int fd = -1;
  }

  /** @param directory where lock files go, or null for locks within this JVM only */
  public ContainerLocks(Path directory) {
    this.directory = directory;
  }

  /** Removes every lock file nobody holds; returns what could not be looked at or removed, as text. */
  public List<String> sweep() {
    List<String> failures = new ArrayList<>();
    if (directory == null || !Files.isDirectory(directory)) {
      return failures;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.lock")) {
      for (Path file : files) {
        try {
          Flock.removeIfFree(file.toString());
        } catch (IOException | LastErrorException e) {
          failures.add("lock file " + file + ": " + (e instanceof LastErrorException
              ? Errno.of(((LastErrorException) e).getErrorCode()) : e.getMessage()));
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

  /** Blocks until this thread holds the lock of {@code name}. */
  public Held lock(String name) {
    Entry entry;
    synchronized (entries) {
      entry = entries.computeIfAbsent(name, k -> new Entry());
      entry.users++;
    }
    entry.lock.lock();
    try {
      if (directory != null && entry.lock.getHoldCount() == 1) {
        lockFile(name, entry);
      }
    } catch (RuntimeException e) {
      release(name, entry);
      throw e;
    }
    return () -> release(name, entry);
  }

  private void lockFile(String name, Entry entry) {
    Path file = directory.resolve(fileName(name));
    try {
      try {
        entry.fd = Flock.lock(file.toString());
      } catch (LastErrorException e) {
        if (e.getErrorCode() != Errno.ENOENT.number()) {
          throw e;
        }
        Files.createDirectories(directory); // the first lock on this machine, or /run was cleared
        entry.fd = Flock.lock(file.toString());
      }
    } catch (IOException | LastErrorException e) {
      String what = "cannot lock container " + name + " with lock file " + file;
      if (e instanceof LastErrorException l) {
        Errno errno = Errno.of(l.getErrorCode());
        throw new LmctfyException(Errors.codeOf(errno), what + ": " + errno, e);
      }
      throw Errors.of(what, (IOException) e);
    }
  }

  private void release(String name, Entry entry) {
    try {
      if (entry.lock.getHoldCount() == 1 && entry.fd >= 0) {
        int fd = entry.fd;
        entry.fd = -1;
        Flock.unlock(fd);
      }
    } catch (LastErrorException e) {
      throw new LmctfyException(ErrorCode.INTERNAL, "cannot release the lock file of " + name + ": "
          + Errno.of(e.getErrorCode()), e);
    } finally {
      entry.lock.unlock();
      synchronized (entries) {
        if (--entry.users == 0) {
          entries.remove(name);
        }
      }
    }
  }

  /** A file name for a container name: {@code %}-escaped slashes, or a hash when too long. */
  static String fileName(String name) {
    String escaped = name.replace("%", "%25").replace("/", "%2F");
    if (escaped.length() <= 200) {
      return escaped + ".lock";
    }
    try {
      byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      return "sha256-" + java.util.HexFormat.of().formatHex(digest) + ".lock";
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError("every Java platform has SHA-256", e);
    }
  }
}
