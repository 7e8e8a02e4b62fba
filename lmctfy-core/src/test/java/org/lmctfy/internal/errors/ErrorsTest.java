package org.lmctfy.internal.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.Errno;

class ErrorsTest {
  /** A row of the README's table: {@code | `UNAVAILABLE` (14) | `EAGAIN`, `EINTR` | ... |}. */
  private static final Pattern ROW = Pattern.compile("^\\| `([A-Z_]+)` \\(\\d+\\) \\| ([^|]+) \\|");

  @Test
  void theReadmeTableIsTheCodesTable() throws IOException {
    Map<Errno, ErrorCode> documented = new EnumMap<>(Errno.class);
    for (String line : Files.readAllLines(Path.of("../README.md"))) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        for (Matcher e = Pattern.compile("`(E[A-Z0-9]+|UNKNOWN)`").matcher(m.group(2));
            e.find(); ) {
          documented.put(Errno.valueOf(e.group(1)), ErrorCode.valueOf(m.group(1)));
        }
      }
    }
    Map<Errno, ErrorCode> coded = new EnumMap<>(Errno.class);
    for (Errno e : Errno.values()) {
      coded.put(e, Errors.codeOf(e));
    }
    assertThat(documented).isEqualTo(coded);
  }

  @Test
  void onlyWhatATryAgainMayCureIsUnavailable() {
    for (Errno e : Errno.values()) {
      boolean transientErrno = e == Errno.EAGAIN || e == Errno.EINTR;
      assertThat(Errors.codeOf(e) == ErrorCode.UNAVAILABLE).as(e.name()).isEqualTo(transientErrno);
    }
    assertThat(Errors.codeOf(Errno.EINVAL)).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(Errors.codeOf(Errno.EBUSY)).isEqualTo(ErrorCode.FAILED_PRECONDITION);
  }

  @Test
  void aFailureCarriesTheCodeOfItsErrnoAndSaysWhatFailed() {
    var e =
        Errors.of(
            "create /job",
            new CgroupFsException(
                CgroupFsException.Operation.WRITE,
                "/sys/fs/cgroup/memory/job/memory.limit_in_bytes",
                "1",
                Errno.EINVAL));
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(e.getMessage())
        .startsWith("create /job: ")
        .contains("memory.limit_in_bytes", "EINVAL");
  }

  @Test
  void javasOwnExceptionsMapByKindAndTheRestIsUnknown() {
    assertThat(Errors.codeOf(new java.nio.file.AccessDeniedException("/run/lmctfy")))
        .isEqualTo(ErrorCode.PERMISSION_DENIED);
    assertThat(Errors.codeOf(new java.nio.file.NoSuchFileException("/x")))
        .isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(Errors.codeOf(new IOException("odd"))).isEqualTo(ErrorCode.UNKNOWN);
  }

  @Test
  void
      aCgroupThatRefusesProcessesIsAFailedPreconditionForAMembershipWriteAndTheRestFollowsTheTable() {
    for (Errno e : Errno.values()) {
      boolean refusesProcesses = e == Errno.ENOSPC || e == Errno.EBUSY || e == Errno.EOPNOTSUPP;
      assertThat(Errors.codeOfMembership(e))
          .as(e.name())
          .isEqualTo(refusesProcesses ? ErrorCode.FAILED_PRECONDITION : Errors.codeOf(e));
    }
  }

  @Test
  void aLauncherKilledWhileBeingPlacedIsAbortedAndEinvalMayBeTriedAgain() {
    for (Errno e : Errno.values()) {
      ErrorCode expected =
          e == Errno.ESRCH
              ? ErrorCode.ABORTED
              : e == Errno.EINVAL ? ErrorCode.UNAVAILABLE : Errors.codeOfMembership(e);
      assertThat(Errors.codeOfLaunch(e)).as(e.name()).isEqualTo(expected);
    }
  }

  @Test
  void aRefusedMoveNamesTheFileAndIsReadAsAMembershipWrite() {
    var e =
        Errors.ofMove(
            "enter /job",
            new CgroupFsException(
                CgroupFsException.Operation.WRITE,
                "/sys/fs/cgroup/job/cgroup.procs",
                "42",
                Errno.EBUSY));
    assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
    assertThat(e.getMessage()).startsWith("enter /job: ").contains("cgroup.procs", "EBUSY");
  }

  @Test
  void aMkdirsEagainIsAHierarchyCapReachedAndEveryOtherEagainOrEintrIsUnavailable() {
    for (Errno e : Errno.values()) {
      assertThat(Errors.codeOfMkdir(e))
          .as(e.name())
          .isEqualTo(e == Errno.EAGAIN ? ErrorCode.RESOURCE_EXHAUSTED : Errors.codeOf(e));
    }
    assertThat(Errors.codeOf(refused(CgroupFsException.Operation.MKDIR, Errno.EAGAIN)))
        .isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(Errors.codeOf(refused(CgroupFsException.Operation.MKDIR, Errno.EINTR)))
        .isEqualTo(ErrorCode.UNAVAILABLE);
    assertThat(Errors.codeOf(refused(CgroupFsException.Operation.WRITE, Errno.EAGAIN)))
        .isEqualTo(ErrorCode.UNAVAILABLE);
  }

  private static CgroupFsException refused(CgroupFsException.Operation op, Errno errno) {
    return new CgroupFsException(op, "/sys/fs/cgroup/job", null, errno);
  }
}
