package org.lmctfy.lifecycle;

import java.io.IOException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.ScratchCgroups;

/** The lifecycle contract on this machine's kernel (skipped without root, failed under CI=true). */
class KernelLifecycleTest extends LifecycleContract {
  @Override
  CgroupFs openCgroupFs() throws IOException {
    return ScratchCgroups.requireHost();
  }
}
