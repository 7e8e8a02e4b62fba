package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.function.Predicate;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * What the freezer contracts share: waiting for a file to say what the kernel reaches in its own
 * time.
 */
abstract class CgroupFreezerContractSupport extends CgroupFsContractSupport {
  CgroupFreezerContractSupport(ContractBackend backend) {
    super(backend);
  }

  /** Waits up to 5 s for {@code file} to satisfy {@code done}; returns its content. */
  final String awaitFile(Hierarchy h, CgroupPath p, String file, Predicate<String> done)
      throws IOException {
    long end = System.nanoTime() + 5_000_000_000L;
    String now = fs.read(h, p, file);
    while (!done.test(now) && System.nanoTime() < end) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      now = fs.read(h, p, file);
    }
    assertThat(done.test(now)).as("%s of %s reads %s", file, p, now).isTrue();
    return now;
  }

  /**
   * Starts a process in {@code p}, then freezes {@code p} ({@code freezer.state} on v1, {@code
   * cgroup.freeze} on v2) and waits until it reads frozen; returns the process.
   */
  final long aFrozenProcessIn(Hierarchy h, CgroupPath p) throws IOException {
    long pid = process();
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    if (h.version() == CgroupVersion.V1) {
      fs.write(h, p, "freezer.state", "FROZEN");
      awaitFile(h, p, "freezer.state", s -> s.equals("FROZEN\n"));
    } else {
      fs.write(h, p, "cgroup.freeze", "1");
      awaitFile(h, p, "cgroup.events", s -> s.contains("frozen 1"));
    }
    return pid;
  }

  /** Pauses, for cases that show that something has not happened. */
  static void settle() throws IOException {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
