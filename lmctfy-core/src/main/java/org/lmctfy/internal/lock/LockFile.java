package org.lmctfy.internal.lock;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.Errno;

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
 * opened), a regular file owned by this process's effective uid (else EACCES: someone else
 * planted it), given mode 0600 whatever the umask.
 */
final class LockFile implements AutoCloseable {
  /** The lock file's name in its directory. */
  static final String NAME = "lmctfy.locks";

  private static final int O_RDWR = 2;
  private static final int O_CREAT = 0100;
  private static final int O_NOFOLLOW = 0400000;
  private static final int O_CLOEXEC = 0x80000;
  private static final int F_OFD_SETLK = 37;
  private static final short F_WRLCK = 1;
  private static final short F_UNLCK = 2;
  private static final int S_IFMT = 0170000;
  private static final int S_IFREG = 0100000;
  static final int S_IFDIR = 0040000;
  private static final int FILE_MODE = 0600;
  /** {@code struct flock}: l_type (short), l_whence (short), l_start, l_len (off_t), l_pid (int). */
  private static final int FLOCK_SIZE = 32;

  static {
    Native.register(Platform.C_LIBRARY_NAME);
  }

  private final String path;
  private final int fd;

  private LockFile(String path, int fd) {
    this.path = path;
    this.fd = fd;
  }

  private static native int open(byte[] path, int flags, int mode) throws LastErrorException;

  private static native int fcntl(int fd, int cmd, byte[] flock) throws LastErrorException;

  private static native int close(int fd) throws LastErrorException;

  private static native int fchmod(int fd, int mode) throws LastErrorException;

  private static native int mkdir(byte[] path, int mode) throws LastErrorException;

  private static native int chmod(byte[] path, int mode) throws LastErrorException;

  static native int geteuid();

  /** What fstat(2) says of an open file. */
  record FileStat(long dev, long ino, long nlink, int mode, int uid) {}

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
      fd = open(cString(path), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_CREAT, FILE_MODE);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.ELOOP.number()) {
        throw new CgroupFsException(Operation.WRITE, path, null, Errno.EACCES,
            "a symbolic link where the lock file belongs: refused, not followed");
      }
      throw failure(Operation.WRITE, path, e);
    }
    try {
      FileStat st = stat(fd);
      if ((st.mode() & S_IFMT) != S_IFREG || st.uid() != geteuid()) {
        throw new CgroupFsException(Operation.WRITE, path, null, Errno.EACCES,
            "not a regular file owned by uid " + geteuid() + " (mode " + Integer.toOctalString(st.mode())
            + ", uid " + st.uid() + "): not a lock file of ours, left alone");
      }
      if ((st.mode() & 07777) != FILE_MODE) {
        fchmod(fd, FILE_MODE); // created under a umask that took bits
      }
      return new LockFile(path, fd);
    } catch (IOException | LastErrorException e) {
      try {
        close(fd);
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
      fcntl(fd, F_OFD_SETLK, flock(F_WRLCK, offset));
      return true;
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.EAGAIN.number() || e.getErrorCode() == Errno.EACCES.number()
          || e.getErrorCode() == Errno.EINTR.number()) {
        return false;
      }
      throw failure(Operation.WRITE, path, e);
    }
  }

  /** Lets go of the lock at {@code offset}. */
  void unlock(long offset) throws CgroupFsException {
    try {
      fcntl(fd, F_OFD_SETLK, flock(F_UNLCK, offset));
    } catch (LastErrorException e) {
      throw failure(Operation.WRITE, path, e);
    }
  }

  /** Whether the file was removed from its directory (it locks nothing for others any more). */
  boolean removed() throws IOException {
    return stat(fd).nlink() == 0;
  }

  /**
   * Who holds the lock at {@code offset}: {@code "process 1234"}, found by the descriptor that
   * holds it (the {@code lock:} lines of {@code /proc/<pid>/fdinfo}: /proc/locks shows no pid for
   * an open-file-description lock), or "another process" where that cannot be seen. Reads every
   * process's descriptors this uid may see: for a timed-out wait's message only.
   */
  String holder(long offset) {
    String range = " " + offset + " " + offset;
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), p -> isNumber(p.getFileName().toString()))) {
      for (Path proc : procs) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
          for (Path fdLink : fds) {
            if (!path.equals(readLink(fdLink))) {
              continue;
            }
            for (String line : Files.readAllLines(proc.resolve("fdinfo").resolve(fdLink.getFileName()))) {
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
      return "another process"; // the holder is a courtesy for the message: not knowing it is no failure
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
    close(fd);
  }

  private static byte[] flock(short type, long offset) {
    ByteBuffer b = ByteBuffer.allocate(FLOCK_SIZE).order(ByteOrder.nativeOrder());
    b.putShort(0, type).putShort(2, (short) 0 /* SEEK_SET */).putLong(8, offset).putLong(16, 1);
    return b.array(); // l_pid 0, as OFD locks require
  }

  /** fstat(2) of {@code fd}: through glibc where it exports it, else procfs. */
  static FileStat stat(int fd) throws IOException {
    if (Stat.AVAILABLE) {
      byte[] buffer = new byte[256];
      Stat.fstat(fd, buffer);
      ByteBuffer b = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
      return Stat.WIDE
          ? new FileStat(b.getLong(0), b.getLong(8), b.getLong(16), b.getInt(24), b.getInt(28))
          : new FileStat(b.getLong(0), b.getLong(8), b.getInt(20), b.getInt(16), b.getInt(24));
    }
    Map<String, Object> a = Files.readAttributes(Path.of("/proc/self/fd/" + fd), "unix:dev,ino,nlink,mode,uid");
    return new FileStat((Long) a.get("dev"), (Long) a.get("ino"), (Integer) a.get("nlink"),
        (Integer) a.get("mode"), (Integer) a.get("uid"));
  }

  /**
   * fstat(2), where glibc exports it (2.33 and later) and {@code struct stat}'s layout is known:
   * x86-64's own, or the generic one of aarch64.
   */
  private static final class Stat {
    static final boolean WIDE = Platform.ARCH.equals("x86-64");
    static final boolean AVAILABLE = register();

    private static boolean register() {
      if (!WIDE && !Platform.ARCH.equals("aarch64")) {
        return false;
      }
      try {
        Native.register(Stat.class, Platform.C_LIBRARY_NAME);
        return true;
      } catch (UnsatisfiedLinkError e) {
        return false; // an older glibc: procfs answers
      }
    }

    static native int fstat(int fd, byte[] buffer) throws LastErrorException;
  }

  /** mkdir(2) with exactly {@code mode}, whatever the umask; false if it existed. */
  static boolean makeDirectory(String path, int mode) throws IOException {
    byte[] cPath = cString(path);
    try {
      mkdir(cPath, mode);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.EEXIST.number()) {
        return false;
      }
      throw failure(Operation.MKDIR, path, e);
    }
    try {
      chmod(cPath, mode); // mkdir's mode is masked by the umask
    } catch (LastErrorException e) {
      throw failure(Operation.MKDIR, path, e);
    }
    return true;
  }

  private static CgroupFsException failure(Operation op, String path, LastErrorException e) {
    return new CgroupFsException(op, path, null, Errno.of(e.getErrorCode()));
  }

  private static byte[] cString(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    return Arrays.copyOf(utf8, utf8.length + 1);
  }
}
