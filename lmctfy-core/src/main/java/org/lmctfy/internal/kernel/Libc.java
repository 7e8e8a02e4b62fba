package org.lmctfy.internal.kernel;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The few libc calls the kernel backend makes directly, because Java's NIO hides their errno (or
 * has no API for them). JNA direct mapping; 64-bit Linux ({@code size_t} and {@code ssize_t} are
 * Java {@code long}). Each call declares {@link LastErrorException}, which carries the errno.
 */
final class Libc {
  static final int O_RDONLY = 0;
  static final int O_WRONLY = 1;
  static final int O_RDWR = 2;
  static final int O_NONBLOCK = 0x800;
  static final int O_DIRECTORY = 0x10000;
  static final int O_CLOEXEC = 0x80000;
  static final int EFD_CLOEXEC = O_CLOEXEC;
  static final int EFD_NONBLOCK = O_NONBLOCK;

  static {
    Native.register(Platform.C_LIBRARY_NAME);
  }

  private Libc() {}

  // Paths and names go to C as NUL-terminated UTF-8 byte arrays: JNA passes a byte[] for about a
  // microsecond and a half less than a String, which counts in a create with dozens of calls.

  static int open(String path, int flags) throws LastErrorException {
    return open(c(path), flags);
  }

  static int mkdir(String path, int mode) throws LastErrorException {
    return mkdir(c(path), mode);
  }

  static int rmdir(String path) throws LastErrorException {
    return rmdir(c(path));
  }

  static long getxattr(String path, String name, byte[] value, long size) throws LastErrorException {
    return getxattr(c(path), c(name), value, size);
  }

  static int setxattr(String path, String name, byte[] value, long size, int flags) throws LastErrorException {
    return setxattr(c(path), c(name), value, size, flags);
  }

  static long listxattr(String path, byte[] list, long size) throws LastErrorException {
    return listxattr(c(path), list, size);
  }

  static int removexattr(String path, String name) throws LastErrorException {
    return removexattr(c(path), c(name));
  }

  static int chown(String path, int uid, int gid) throws LastErrorException {
    return chown(c(path), uid, gid);
  }

  /** Whether {@code path} exists: access(2) with F_OK, which, unlike NIO, costs no exception when it does not. */
  static boolean exists(String path) {
    return access(c(path), 0) == 0;
  }

  static int inotifyAddWatch(int fd, String path, int mask) throws LastErrorException {
    return inotify_add_watch(fd, c(path), mask);
  }

  /** {@code s} as a C string. */
  private static byte[] c(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    return Arrays.copyOf(utf8, utf8.length + 1);
  }

  private static native int access(byte[] path, int mode);

  /** {@code path} is a NUL-terminated C string. */
  static native int open(byte[] path, int flags) throws LastErrorException;

  static native long read(int fd, byte[] buffer, long count) throws LastErrorException;

  static native long write(int fd, byte[] buffer, long count) throws LastErrorException;

  static native int close(int fd) throws LastErrorException;

  private static native int mkdir(byte[] path, int mode) throws LastErrorException;

  private static native int rmdir(byte[] path) throws LastErrorException;

  private static native long getxattr(byte[] path, byte[] name, byte[] value, long size) throws LastErrorException;

  private static native int setxattr(byte[] path, byte[] name, byte[] value, long size, int flags)
      throws LastErrorException;

  private static native long listxattr(byte[] path, byte[] list, long size) throws LastErrorException;

  private static native int removexattr(byte[] path, byte[] name) throws LastErrorException;

  private static native int chown(byte[] path, int uid, int gid) throws LastErrorException;

  static native int mount(String source, String target, String fstype, long flags, String data)
      throws LastErrorException;

  static native int umount2(String target, int flags) throws LastErrorException;

  static native int kill(int pid, int signal) throws LastErrorException;

  static native int geteuid();

  static native int eventfd(int initval, int flags) throws LastErrorException;

  static native long read(int fd, Pointer buffer, long count) throws LastErrorException;

  static native int epoll_create1(int flags) throws LastErrorException;

  /** {@code event} is one {@code struct epoll_event} (packed on x86-64: 12 bytes). */
  static native int epoll_ctl(int epfd, int op, int fd, Pointer event) throws LastErrorException;

  static native int epoll_wait(int epfd, Pointer events, int maxEvents, int timeoutMillis) throws LastErrorException;

  static native int inotify_init1(int flags) throws LastErrorException;

  private static native int inotify_add_watch(int fd, byte[] path, int mask) throws LastErrorException;

  static native int inotify_rm_watch(int fd, int wd) throws LastErrorException;

  /** {@code bpf(cmd, attr, size)} through syscall(2): glibc has no wrapper for it. */
  static native long syscall(long number, int cmd, Pointer attr, int size) throws LastErrorException;
}
