package org.lmctfy.lifecycle;

import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.ContractBackend;

/** Threaded cgroups on the fake's pure v2 layout. */
class FakeThreadedCgroupsTest extends ThreadedCgroupsContract {
  FakeThreadedCgroupsTest() {
    super(ContractBackend.fake(FakeLayout.V2));
  }

  private FakeCgroupFs fake() {
    return (FakeCgroupFs) fs;
  }

  @Override
  long[] startThreadedProcess() {
    long pid = fake().processes().spawn();
    return new long[] {pid, fake().processes().spawnThread(pid)};
  }

  @Override
  boolean gone(long pid) {
    return !fake().processes().living().contains(pid);
  }

  @Override
  void stop(long pid) {
    if (!gone(pid)) {
      fake().processes().exit(pid);
    }
  }
}
