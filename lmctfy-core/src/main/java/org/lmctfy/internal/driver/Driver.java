package org.lmctfy.internal.driver;

import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.internal.lifecycle.RootKeeper;

/** An API's root container and what keeps it usable; closed with the API. */
public abstract class Driver implements RootKeeper, AutoCloseable {
  /**
   * The cgroup that is the root container (it may not exist yet: a unit asked for at the first
   * create).
   */
  public abstract CgroupPath root();

  /**
   * Which driver, for logs and messages: {@code cgroupfs}, {@code systemd (lmctfy.service of PID
   * 1)}...
   */
  public abstract String describe();

  /** Ends what the driver holds (a D-Bus connection); idempotent. */
  @Override
  public void close() {}
}
