package org.lmctfy.internal.driver;

import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;

/**
 * AUTO's driver on a machine that systemd runs (PID 1, controllers on cgroup v2) when this
 * process's cgroup was not delegated to it and lmctfy-systemd is not on the class path: the API
 * reads (list, stats, detect, spec) as the cgroupfs driver would, but the first top-level create
 * and initMachine are refused before anything changes, naming the module to add. Without the
 * refusal they would fail later and elsewhere (a controller that does not reach the root, a cgroup
 * systemd owns), with initMachine as the remedy, which only the systemd driver or a unit with
 * {@code Delegate=yes} makes safe on such a machine (a daemon-reload resets what systemd did not
 * delegate).
 */
final class WithoutSystemdModule extends Driver {
  private final CgroupPath root;

  /**
   * @param root this process's own cgroup, where the reads are rooted
   */
  WithoutSystemdModule(CgroupPath root) {
    this.root = root;
  }

  @Override
  public CgroupPath root() {
    return root;
  }

  @Override
  public String describe() {
    return "none: systemd runs this machine and lmctfy-systemd is not on the class path";
  }

  @Override
  public void precheck() {
    throw new LmctfyException(
        ErrorCode.FAILED_PRECONDITION,
        "systemd runs this machine and did not delegate this process's cgroup "
            + root
            + " to it, so containers need the systemd driver; "
            + Remedies.systemdModuleMissing()
            + "; nothing was changed");
  }
}
