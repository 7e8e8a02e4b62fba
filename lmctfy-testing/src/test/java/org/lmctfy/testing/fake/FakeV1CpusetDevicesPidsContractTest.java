package org.lmctfy.testing.fake;

import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.CgroupV1CpusetDevicesPidsContract;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** {@link CgroupV1CpusetDevicesPidsContract} on the fake laid out as {@link FakeLayout#THIS_MACHINE}. */
class FakeV1CpusetDevicesPidsContractTest extends CgroupV1CpusetDevicesPidsContract {
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
}
