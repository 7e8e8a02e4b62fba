package org.lmctfy.testing.internal.fake;

import org.lmctfy.cgroupfs.Errno;

/**
 * A refusal by the modelled kernel; {@link Kernel} turns it into a CgroupFsException with the path.
 */
final class KernelError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Errno errno;

  KernelError(Errno errno) {
    super(errno.name(), null, false, false);
    this.errno = errno;
  }

  Errno errno() {
    return errno;
  }

  static KernelError of(Errno errno) {
    return new KernelError(errno);
  }
}
