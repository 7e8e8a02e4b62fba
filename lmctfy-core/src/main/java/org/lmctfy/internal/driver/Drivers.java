package org.lmctfy.internal.driver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.ServiceLoader;
import org.lmctfy.ApiOptions;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.driver.CgroupfsDriver.Delegation;
import org.lmctfy.internal.lifecycle.Layout;
import org.lmctfy.systemdbus.SystemdConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The choice of driver, made once when an API is opened (see {@link ApiOptions.Driver}). Reads
 * only: nothing is made, and D-Bus is asked nothing, unless a user manager's cgroup is not where
 * systemd puts it.
 */
public final class Drivers {
  private static final Logger LOG = LoggerFactory.getLogger(Drivers.class);

  /** sd_booted(3): systemd runs the machine when this directory exists. */
  private static final Path SYSTEMD_RUNS = Path.of("/run/systemd/system");

  private Drivers() {}

  /**
   * The driver for an API over {@code fs} with {@code options}; {@code systemd} is the manager a
   * caller gave (a fake), or null to find lmctfy-systemd's with {@link ServiceLoader} where needed.
   */
  public static Driver open(CgroupFs fs, ApiOptions options, SystemdConnector systemd) {
    Hierarchy unified = null;
    boolean v1Controllers = false;
    for (Hierarchy h : fs.hierarchies()) {
      if (h.version() == CgroupVersion.V2) {
        unified = unified == null ? h : unified;
      } else if (!h.controllers().isEmpty()) {
        v1Controllers = true;
      }
    }
    boolean pureV2 = unified != null && !v1Controllers;
    boolean host = fs.capabilities().contains(CgroupFs.Capability.HOST_TREE);
    ApiOptions.Driver driver = options.driver();
    if (driver == ApiOptions.Driver.AUTO) {
      driver =
          systemd != null
                  || options.root() == null && host && pureV2 && Files.isDirectory(SYSTEMD_RUNS)
              ? ApiOptions.Driver.SYSTEMD
              : ApiOptions.Driver.CGROUPFS;
    } else if (driver == ApiOptions.Driver.CGROUPFS && systemd != null) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "a systemd manager was given with the CGROUPFS driver;"
              + " give AUTO or SYSTEMD, or open without the manager");
    }
    if (systemd != null && options.root() != null) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "a systemd manager and a root ("
              + options.root()
              + ") exclude each other: the systemd driver's root is the cgroup systemd delegated");
    }
    Driver chosen =
        driver == ApiOptions.Driver.SYSTEMD
            ? systemd(fs, unified, pureV2, host, options, systemd)
            : cgroupfs(fs, unified, pureV2, options.root());
    LOG.debug("driver: {}; the root container is {}", chosen.describe(), chosen.root());
    return chosen;
  }

  private static Driver systemd(
      CgroupFs fs,
      Hierarchy unified,
      boolean pureV2,
      boolean host,
      ApiOptions options,
      SystemdConnector given) {
    if (!pureV2) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "the systemd driver needs the controllers on cgroup v2,"
              + " and this machine has them on v1 hierarchies ("
              + fs.hierarchies().stream()
                  .filter(h -> h.version() == CgroupVersion.V1 && !h.controllers().isEmpty())
                  .map(Hierarchy::mountPoint)
                  .toList()
              + "); use the CGROUPFS driver");
    }
    if (given == null && host && !Files.isDirectory(SYSTEMD_RUNS)) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "the systemd driver needs systemd as PID 1, and it is"
              + " not ("
              + SYSTEMD_RUNS
              + " does not exist); use the CGROUPFS driver");
    }
    CgroupPath own = defaultRoot(fs);
    if (!own.isRoot() && delegated(fs, unified, own)) {
      return new CgroupfsDriver(
          fs, own, unified, Delegation.SYSTEMD_UNIT); // systemd delegated our own unit
    }
    SystemdConnector connector = given != null ? given : installedConnector();
    if (connector == null) {
      if (options.driver() == ApiOptions.Driver.SYSTEMD) {
        throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, Remedies.systemdModuleMissing());
      }
      // AUTO: reads work; the first top-level create (or initMachine) is refused naming the module
      return new WithoutSystemdModule(own);
    }
    return SystemdUnitDriver.open(
        fs, unified, connector, options.systemdUnit(), options.systemdTimeout());
  }

  private static Driver cgroupfs(CgroupFs fs, Hierarchy unified, boolean pureV2, CgroupPath given) {
    if (given != null) {
      return new CgroupfsDriver(fs, given, unified, Delegation.NONE);
    }
    CgroupPath root = defaultRoot(fs);
    Delegation delegation = Delegation.NONE;
    if (pureV2 && delegated(fs, unified, root)) {
      delegation = root.isRoot() ? Delegation.CGROUP_NAMESPACE : Delegation.SYSTEMD_UNIT;
    }
    return new CgroupfsDriver(fs, root, unified, delegation);
  }

  /** Delegated, and to this process: root may use any delegated cgroup, a user only its own. */
  private static boolean delegated(CgroupFs fs, Hierarchy unified, CgroupPath path) {
    try {
      int self = fs.effectiveUid();
      return fs.delegated(unified, path)
          && (self == 0 || fs.owner(unified, path, null).uid() == self);
    } catch (IOException e) {
      throw new LmctfyException(
          ErrorCode.UNAVAILABLE,
          "cannot tell whether "
              + unified.display(path, null)
              + " was delegated to this process: "
              + e.getMessage(),
          e);
    }
  }

  /** lmctfy-systemd's connector, where it is on the class or module path. */
  private static SystemdConnector installedConnector() {
    Iterator<SystemdConnector> found =
        ServiceLoader.load(SystemdConnector.class, Drivers.class.getClassLoader()).iterator();
    return found.hasNext() ? found.next() : null;
  }

  /**
   * See {@code ContainerApi.open(CgroupFs)}: this process's v2 cgroup where v2 carries the
   * controllers, else the root.
   */
  public static CgroupPath defaultRoot(CgroupFs fs) {
    Hierarchy unified = null;
    for (Hierarchy h : fs.hierarchies()) {
      if (h.version() == CgroupVersion.V1 && !h.controllers().isEmpty()) {
        return CgroupPath.root(); // v1 or hybrid: the mount roots, as lmctfy had them
      }
      if (h.version() == CgroupVersion.V2) {
        unified = h;
      }
    }
    if (unified == null) {
      return CgroupPath.root();
    }
    try {
      CgroupPath self = fs.cgroupsOf(fs.selfPid()).get(unified);
      if (self == null || self.isRoot()) {
        return CgroupPath.root();
      }
      // in a processes leaf (initMachine's, or the drivers'), the root is the cgroup the leaf was
      // made for
      String base = self.value().substring(self.value().lastIndexOf('/') + 1);
      return fs.marker(unified, self.parent(), Layout.leafKey(base)).isPresent()
          ? self.parent()
          : self;
    } catch (IOException e) {
      throw new LmctfyException(
          ErrorCode.UNAVAILABLE,
          "cannot read this process's cgroup to choose the API's root: " + e.getMessage(),
          e);
    }
  }
}
