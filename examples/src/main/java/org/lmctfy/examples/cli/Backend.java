package org.lmctfy.examples.cli;

import java.io.IOException;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/**
 * The cgroup filesystem one CLI invocation works on.
 *
 * @param fs the backend
 * @param notice what to say on stderr before the command runs, or null to say nothing (the host)
 * @param endsPrograms whether a program started with {@code run} (without {@code -n}) can end by
 *     itself: false for a fake of the {@code --backend fake} option, whose processes never run
 * @param signals how {@code run} passes a signal on to its program: the host's {@code kill}; a
 *     fake's pids are no host processes, so a fake made with the short constructor refuses
 */
record Backend(CgroupFs fs, String notice, boolean endsPrograms, ProgramSignals.Sender signals) {

  /** A backend whose processes get no signals (a fake). */
  Backend(CgroupFs fs, String notice, boolean endsPrograms) {
    this(
        fs,
        notice,
        endsPrograms,
        (pid, signal) -> {
          throw new IOException(
              "this backend's processes (" + fs.getClass().getSimpleName() + ") take no signals");
        });
  }

  /** The two backends of {@code --backend}. */
  enum Kind {
    HOST,
    FAKE
  }

  /** Opens the backend a command line asked for. */
  @FunctionalInterface
  interface Factory {
    Backend open(Kind kind, FakeLayout layout) throws IOException;
  }

  /**
   * The real choice: the host's cgroups (for any user: what it may do is the driver's and the
   * kernel's to say), refused with the reason when none is mounted; or a fresh {@link
   * FakeCgroupFs}, empty at every invocation. Only the fake touches {@code lmctfy-testing}: the
   * host needs no test kit.
   */
  static Backend open(Kind kind, FakeLayout layout) throws IOException {
    if (kind == Kind.FAKE) {
      return new Backend(
          FakeCgroupFs.create(layout),
          "lmctfy: backend: in-memory fake (FakeCgroupFs, layout "
              + layout
              + "); it starts empty and is gone when this command ends",
          false);
    }
    // any user: reads need no root; on a systemd machine the systemd driver gives a user containers
    // of its own (its user manager), elsewhere a write outside the user's cgroups is
    // PERMISSION_DENIED
    try {
      return new Backend(ContainerApi.hostCgroupFs(), null, true, ProgramSignals::kill);
    } catch (IOException e) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "the host's cgroups cannot be used: " + e.getMessage() + "; " + TRY_FAKE,
          e);
    }
  }

  private static final String TRY_FAKE =
      "to try lmctfy without root, add --backend fake (an in-memory cgroupfs that lasts one command)";
}
