package org.lmctfy.internal.kernel;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;

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
  static final int O_CLOEXEC = 0x80000;
  static final int EFD_CLOEXEC = O_CLOEXEC;
  static final short POLLIN = 0x1;
  static final short POLLPRI = 0x2;
  static final short POLLERR = 0x8;
  static final short POLLHUP = 0x10;
  static final short POLLNVAL = 0x20;

  static {
    Native.register(Platform.C_LIBRARY_NAME);
  }

  private Libc() {}

  static native int open(String path, int flags) throws LastErrorException;

  static native long read(int fd, byte[] buffer, long count) throws LastErrorException;

  static native long write(int fd, byte[] buffer, long count) throws LastErrorException;

  static native int close(int fd) throws LastErrorException;

  static native int mkdir(String path, int mode) throws LastErrorException;

  static native int rmdir(String path) throws LastErrorException;

  static native long getxattr(String path, String name, byte[] value, long size) throws LastErrorException;

  static native int setxattr(String path, String name, byte[] value, long size, int flags)
      throws LastErrorException;

  static native long listxattr(String path, byte[] list, long size) throws LastErrorException;

  static native int removexattr(String path, String name) throws LastErrorException;

  static native int chown(String path, int uid, int gid) throws LastErrorException;

  static native int mount(String source, String target, String fstype, long flags, String data)
      throws LastErrorException;

  static native int umount2(String target, int flags) throws LastErrorException;

  static native int kill(int pid, int signal) throws LastErrorException;

  static native int eventfd(int initval, int flags) throws LastErrorException;

  /** {@code fds} holds {@code nfds} {@code struct pollfd}s (int fd, short events, short revents), native order. */
  static native int poll(byte[] fds, long nfds, int timeoutMillis) throws LastErrorException;
}
