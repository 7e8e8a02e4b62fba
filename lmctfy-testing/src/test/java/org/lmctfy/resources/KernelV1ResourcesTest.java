package org.lmctfy.resources;

import java.io.IOException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.ScratchCgroups;

/** The v1 field contract on this machine's kernel (skipped without root, failed under CI=true). */
class KernelV1ResourcesTest extends V1ResourcesContract {
  @Override
  CgroupFs openCgroupFs() throws IOException {
    return ScratchCgroups.requireHost();
  }
}
