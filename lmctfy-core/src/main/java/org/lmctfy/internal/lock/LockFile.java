package org.lmctfy.internal.lock;

import static org.lmctfy.internal.libc.Libc.F_OFD_SETLK;
import static org.lmctfy.internal.libc.Libc.F_UNLCK;
import static org.lmctfy.internal.libc.Libc.F_WRLCK;
import static org.lmctfy.internal.libc.Libc.O_CLOEXEC;
import static org.lmctfy.internal.libc.Libc.O_CREAT;
import static org.lmctfy.internal.libc.Libc.O_NOFOLLOW;
import static org.lmctfy.internal.libc.Libc.O_RDWR;
import static org.lmctfy.internal.libc.Libc.S_IFMT;
import static org.lmctfy.internal.libc.Libc.S_IFREG;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.internal.libc.Libc;

/**
 * One lock file, held open, whose bytes are locks: open-file-description locks ({@code
 * F_OFD_SETLK}) on one byte each, at offsets the caller derives from what it locks. Such a lock
 * belongs to the open file, not to the process (so the kernel's per-process deadlock detection
 * never refuses a wait that only looks like a cycle, and two opens in one process exclude each
 * other), and the kernel drops it when the holder's descriptor goes, also when the holder dies.
 * Taking and letting go of a lock is one {@code fcntl} each; the file itself is one per lock
 * directory, made once and never removed, so nothing piles up.
 *
 * <p>Checked once, at open: the directory as {@link ContainerLocks} says; the file opened with
 * {@code O_NOFOLLOW} (a symlink planted at its path is refused, its target never created or
 * opened), a regular file owned by this process's effective uid (else EACCES: someone else planted
 * it), given mode 0600 whatever the umask.
 */
final class LockFile implements AutoCloseable {
  /** The lock file's name in its directory. */
  static final String NAME = "lmctfy.locks";

  private static final int FILE_MODE = 0600;

  /**
   * {@code struct flock}: l_type (short), l_whence (short), l_start, l_len (off_t), l_pid (int).
   */
  private static final int FLOCK_SIZE = 32;

  private final String path;
  private final int fd;

  private LockFile(String path, int fd) {
    this.path = path;
    this.fd = fd;
  }

  /**
   * Opens (making it where missing) and checks the lock file {@link #NAME} in {@code directory}.
   *
   * @throws CgroupFsException naming the file: EACCES for a symlink or a file that is not a regular
   *     file of this uid, or what open(2) refused
   */
  static LockFile open(Path directory) throws IOException {
    String path = directory.resolve(NAME).toString();
    int fd;
    try {
      fd = Libc.open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_CREAT, FILE_MODE);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.ELOOP.number()) {
        throw new CgroupFsException(
            Operation.WRITE,
            path,
            null,
            Errno.EACCES,
            "a symbolic link where the lock file belongs: refused, not followed");
      }
      throw failure(Operation.WRITE, path, e);
    }
    try {
      Libc.FileStat st = Libc.fstat(fd);
      if ((st.mode() & S_IFMT) != S_IFREG || st.uid() != Libc.geteuid()) {
        throw new CgroupFsException(
            Operation.WRITE,
            path,
            null,
            Errno.EACCES,
            "not a regular file owned by uid "
                + Libc.geteuid()
                + " (mode "
                + Integer.toOctalString(st.mode())
                + ", uid "
                + st.uid()
                + "): not a lock file of ours, left alone");
      }
      if ((st.mode() & 07777) != FILE_MODE) {
        Libc.fchmod(fd, FILE_MODE); // created under a umask that took bits
      }
      return new LockFile(path, fd);
    } catch (IOException | LastErrorException e) {
      try {
        Libc.close(fd);
      } catch (LastErrorException closing) {
        e.addSuppressed(closing);
      }
      throw e instanceof LastErrorException l ? failure(Operation.WRITE, path, l) : (IOException) e;
    }
  }

  String path() {
    return path;
  }

  /** Takes the lock at {@code offset} if nobody else holds it; false if someone does. */
  boolean tryLock(long offset) throws CgroupFsException {
    try {
      Libc.fcntl(fd, F_OFD_SETLK, flock(F_WRLCK, offset));
      return true;
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.EAGAIN.number()
          || e.getErrorCode() == Errno.EACCES.number()
          || e.getErrorCode() == Errno.EINTR.number()) {
        return false;
      }
      throw failure(Operation.WRITE, path, e);
    }
  }

  /** Lets go of the lock at {@code offset}. */
  void unlock(long offset) throws CgroupFsException {
    try {
      Libc.fcntl(fd, F_OFD_SETLK, flock(F_UNLCK, offset));
    } catch (LastErrorException e) {
      throw failure(Operation.WRITE, path, e);
    }
  }

  /** Whether the file was removed from its directory (it locks nothing for others any more). */
  boolean removed() throws IOException {
    return Libc.fstat(fd).nlink() == 0;
  }

  /**
   * Who holds the lock at {@code offset}: {@code "process 1234"}, found by the descriptor that
   * holds it (the {@code lock:} lines of {@code /proc/<pid>/fdinfo}: /proc/locks shows no pid for
   * an open-file-description lock), or "another process" where that cannot be seen. Reads every
   * process's descriptors this uid may see: for a timed-out wait's message only.
   */
  String holder(long offset) {
    String range = " " + offset + " " + offset;
    try (DirectoryStream<Path> procs =
        Files.newDirectoryStream(Path.of("/proc"), p -> isNumber(p.getFileName().toString()))) {
      for (Path proc : procs) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
          for (Path fdLink : fds) {
            if (!path.equals(readLink(fdLink))) {
              continue;
            }
            for (String line :
                Files.readAllLines(proc.resolve("fdinfo").resolve(fdLink.getFileName()))) {
              if (line.startsWith("lock:") && line.contains("OFDLCK") && line.endsWith(range)) {
                return "process " + proc.getFileName();
              }
            }
          }
        } catch (IOException | RuntimeException e) {
          // a process that ended, or one this uid may not look into: not the one, or not knowable
        }
      }
    } catch (IOException | RuntimeException e) {
      // the holder is a courtesy for the message: not knowing it is no failure
      return "another process";
    }
    return "another process";
  }

  private static String readLink(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private static boolean isNumber(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return !s.isEmpty();
  }

  @Override
  public void close() {
    Libc.close(fd);
  }

  private static byte[] flock(short type, long offset) {
    ByteBuffer b = ByteBuffer.allocate(FLOCK_SIZE).order(ByteOrder.nativeOrder());
    b.putShort(0, type).putShort(2, (short) 0 /* SEEK_SET */).putLong(8, offset).putLong(16, 1);
    return b.array(); // l_pid 0, as OFD locks require
  }

  /** mkdir(2) with exactly {@code mode}, whatever the umask; false if it existed. */
  static boolean makeDirectory(String path, int mode) throws IOException {
    try {
      Libc.mkdir(path, mode);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.EEXIST.number()) {
        return false;
      }
      throw failure(Operation.MKDIR, path, e);
    }
    try {
      Libc.chmod(path, mode); // mkdir's mode is masked by the umask
    } catch (LastErrorException e) {
      throw failure(Operation.MKDIR, path, e);
    }
    return true;
  }

  private static CgroupFsException failure(Operation op, String path, LastErrorException e) {
    return new CgroupFsException(op, path, null, Errno.of(e.getErrorCode()));
  }
}
