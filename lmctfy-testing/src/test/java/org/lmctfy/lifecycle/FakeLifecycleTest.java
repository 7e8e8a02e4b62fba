package org.lmctfy.lifecycle;

import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.FakeCgroupFs;

/** The lifecycle contract on the fake laid out like this project's machines. */
class FakeLifecycleTest extends LifecycleContract {
  @Override
  CgroupFs openCgroupFs() {
    return FakeCgroupFs.create();
  }
}
