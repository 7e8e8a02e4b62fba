package org.lmctfy.examples.cli;

import org.lmctfy.ApiOptions;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeSystemd;

/**
 * {@code --backend fake --driver systemd}: the fake with an in-memory systemd ({@link
 * FakeSystemd}), so that the systemd driver's unit can be seen without systemd. Apart from the
 * host's path, which never loads the fake.
 */
final class FakeSystemdBackend {
  private FakeSystemdBackend() {}

  static ContainerApi open(CgroupFs fs, ApiOptions options) {
    if (!(fs instanceof FakeCgroupFs fake)) {
      throw new LmctfyException(ErrorCode.INTERNAL, "the fake backend is no FakeCgroupFs: " + fs);
    }
    try {
      return ContainerApi.open(fake, FakeSystemd.on(fake), options);
    } catch (IllegalStateException e) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "--driver systemd: "
              + e.getMessage()
              + "; choose a pure v2 --fake-layout (SYSTEMD_V2, V2)",
          e);
    }
  }
}
