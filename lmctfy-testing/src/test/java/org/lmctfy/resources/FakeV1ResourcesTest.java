package org.lmctfy.resources;

import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.FakeCgroupFs;

/** The v1 field contract on the fake laid out like this project's machines. */
class FakeV1ResourcesTest extends V1ResourcesContract {
  @Override
  CgroupFs openCgroupFs() {
    return FakeCgroupFs.create();
  }
}
