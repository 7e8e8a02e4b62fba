package org.lmctfy.testing.fake;

import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.CgroupFsContract;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** {@link CgroupFsContract} on the fake laid out as {@link FakeLayout#THIS_MACHINE}. */
class FakeCgroupFsContractTest extends CgroupFsContract {
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
    FakeCgroupFs fake = (FakeCgroupFs) fs;
    if (fake.processes().contains(pid)) { // cgroup.kill may have ended it already
      fake.exitProcess(pid);
    }
  }
}
