package org.lmctfy.testing.kernel;

import java.io.IOException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.CgroupFsFilesContract;
import org.lmctfy.testing.ScratchCgroups;

/** {@link CgroupFsFilesContract} on this machine's kernel (skipped without root, failed under CI=true). */
class KernelCgroupFsFilesContractTest extends CgroupFsFilesContract {
  private final HostProcesses processes = new HostProcesses();

  @Override
  protected CgroupFs openCgroupFs() throws IOException {
    return ScratchCgroups.requireHost();
  }

  @Override
  protected long startProcess() throws IOException {
    return processes.start();
  }

  @Override
  protected void stopProcess(long pid) throws IOException {
    processes.stop(pid);
  }
}
