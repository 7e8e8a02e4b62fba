package org.lmctfy.testing.fake;

import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.CgroupFsFilesContract;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** {@link CgroupFsFilesContract} on the fake laid out as {@link FakeLayout#THIS_MACHINE}. */
class FakeCgroupFsFilesContractTest extends CgroupFsFilesContract {
  @Override
  protected CgroupFs openCgroupFs() {
    return FakeCgroupFs.create(FakeLayout.THIS_MACHINE);
  }

  @Override
  protected long startProcess() {
    return ((FakeCgroupFs) fs).spawnProcess();
  }

  @Override
  protected void stopProcess(long pid) {
    ((FakeCgroupFs) fs).exitProcess(pid);
  }

  @Override
  protected boolean mayMoveTheTestProcess() {
    return true; // the fake's own process is modelled
  }
}
