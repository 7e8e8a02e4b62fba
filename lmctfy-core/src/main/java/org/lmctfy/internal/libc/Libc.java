package org.lmctfy.internal.libc;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * The library's one binding of libc: the few calls the kernel backend and the lock file make
 * directly, because Java's NIO hides their errno (or has no API for them), and their constants. JNA
 * direct mapping; 64-bit Linux ({@code size_t} and {@code ssize_t} are Java {@code long}). Each
 * call declares {@link LastErrorException}, which carries the errno.
 */
public final class Libc {
  public static final int O_RDONLY = 0;
  public static final int O_WRONLY = 1;
  public static final int O_RDWR = 2;
  public static final int O_CREAT = 0100;
  public static final int O_NONBLOCK = 0x800;
  public static final int O_DIRECTORY = 0x10000;
  public static final int O_NOFOLLOW = 0400000;
  public static final int O_CLOEXEC = 0x80000;
  public static final int EFD_CLOEXEC = O_CLOEXEC;
  public static final int EFD_NONBLOCK = O_NONBLOCK;

  /** fcntl(2)'s open-file-description lock command, and {@code struct flock}'s lock types. */
  public static final int F_OFD_SETLK = 37;

  public static final short F_WRLCK = 1;
  public static final short F_UNLCK = 2;

  /** {@code st_mode}'s file type bits and two of their values. */
  public static final int S_IFMT = 0170000;

  public static final int S_IFREG = 0100000;
  public static final int S_IFDIR = 0040000;

  static {
    Native.register(Platform.C_LIBRARY_NAME);
  }

  private Libc() {}

  // Paths and names go to C as NUL-terminated UTF-8 byte arrays: JNA passes a byte[] for about a
  // microsecond and a half less than a String, which counts in a create with dozens of calls.

  public static int open(String path, int flags) throws LastErrorException {
    return open(c(path), flags);
  }

  public static int mkdir(String path, int mode) throws LastErrorException {
    return mkdir(c(path), mode);
  }

  public static int rmdir(String path) throws LastErrorException {
    return rmdir(c(path));
  }

  public static long getxattr(String path, String name, byte[] value, long size)
      throws LastErrorException {
    return getxattr(c(path), c(name), value, size);
  }

  public static int setxattr(String path, String name, byte[] value, long size, int flags)
      throws LastErrorException {
    return setxattr(c(path), c(name), value, size, flags);
  }

  public static long listxattr(String path, byte[] list, long size) throws LastErrorException {
    return listxattr(c(path), list, size);
  }

  public static int removexattr(String path, String name) throws LastErrorException {
    return removexattr(c(path), c(name));
  }

  public static int chown(String path, int uid, int gid) throws LastErrorException {
    return chown(c(path), uid, gid);
  }

  public static int open(String path, int flags, int mode) throws LastErrorException {
    return open(c(path), flags, mode);
  }

  public static int chmod(String path, int mode) throws LastErrorException {
    return chmod(c(path), mode);
  }

  /**
   * Whether {@code path} exists: access(2) with F_OK, which, unlike NIO, costs no exception when it
   * does not.
   */
  public static boolean exists(String path) {
    return access(c(path), 0) == 0;
  }

  public static int inotifyAddWatch(int fd, String path, int mask) throws LastErrorException {
    return inotify_add_watch(fd, c(path), mask);
  }

  /** {@code s} as a C string. */
  private static byte[] c(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    return Arrays.copyOf(utf8, utf8.length + 1);
  }

  private static native int access(byte[] path, int mode);

  /** {@code path} is a NUL-terminated C string. */
  public static native int open(byte[] path, int flags) throws LastErrorException;

  public static native long read(int fd, byte[] buffer, long count) throws LastErrorException;

  public static native long write(int fd, byte[] buffer, long count) throws LastErrorException;

  private static native int open(byte[] path, int flags, int mode) throws LastErrorException;

  public static native int close(int fd) throws LastErrorException;

  /**
   * {@code flock} is one {@code struct flock}: l_type, l_whence (shorts), l_start, l_len, l_pid.
   */
  public static native int fcntl(int fd, int cmd, byte[] flock) throws LastErrorException;

  public static native int fchmod(int fd, int mode) throws LastErrorException;

  private static native int chmod(byte[] path, int mode) throws LastErrorException;

  private static native int mkdir(byte[] path, int mode) throws LastErrorException;

  private static native int rmdir(byte[] path) throws LastErrorException;

  private static native long getxattr(byte[] path, byte[] name, byte[] value, long size)
      throws LastErrorException;

  private static native int setxattr(byte[] path, byte[] name, byte[] value, long size, int flags)
      throws LastErrorException;

  private static native long listxattr(byte[] path, byte[] list, long size)
      throws LastErrorException;

  private static native int removexattr(byte[] path, byte[] name) throws LastErrorException;

  private static native int chown(byte[] path, int uid, int gid) throws LastErrorException;

  public static native int mount(
      String source, String target, String fstype, long flags, String data)
      throws LastErrorException;

  public static native int umount2(String target, int flags) throws LastErrorException;

  public static native int kill(int pid, int signal) throws LastErrorException;

  public static native int geteuid();

  public static native int eventfd(int initval, int flags) throws LastErrorException;

  public static native long read(int fd, Pointer buffer, long count) throws LastErrorException;

  public static native int epoll_create1(int flags) throws LastErrorException;

  /** {@code event} is one {@code struct epoll_event} (packed on x86-64: 12 bytes). */
  public static native int epoll_ctl(int epfd, int op, int fd, Pointer event)
      throws LastErrorException;

  public static native int epoll_wait(int epfd, Pointer events, int maxEvents, int timeoutMillis)
      throws LastErrorException;

  public static native int inotify_init1(int flags) throws LastErrorException;

  private static native int inotify_add_watch(int fd, byte[] path, int mask)
      throws LastErrorException;

  public static native int inotify_rm_watch(int fd, int wd) throws LastErrorException;

  /** {@code bpf(cmd, attr, size)} through syscall(2): glibc has no wrapper for it. */
  public static native long syscall(long number, int cmd, Pointer attr, int size)
      throws LastErrorException;

  /** What fstat(2) says of an open file. */
  public record FileStat(long dev, long ino, long nlink, int mode, int uid) {}

  /** fstat(2) of {@code fd}: through glibc where it exports it, else procfs. */
  public static FileStat fstat(int fd) throws IOException {
    if (Stat.AVAILABLE) {
      byte[] buffer = new byte[256];
      Stat.fstat(fd, buffer);
      ByteBuffer b = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
      return Stat.WIDE
          ? new FileStat(b.getLong(0), b.getLong(8), b.getLong(16), b.getInt(24), b.getInt(28))
          : new FileStat(b.getLong(0), b.getLong(8), b.getInt(20), b.getInt(16), b.getInt(24));
    }
    Map<String, Object> a =
        Files.readAttributes(Path.of("/proc/self/fd/" + fd), "unix:dev,ino,nlink,mode,uid");
    return new FileStat(
        (Long) a.get("dev"),
        (Long) a.get("ino"),
        (Integer) a.get("nlink"),
        (Integer) a.get("mode"),
        (Integer) a.get("uid"));
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
}
