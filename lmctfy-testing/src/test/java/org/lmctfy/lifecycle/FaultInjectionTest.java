package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lmctfy.ContainerApi;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeOperation;
import org.lmctfy.testing.FakeSnapshot;

/**
 * Every mutating operation of a create and of a destroy fails in turn, with each of EINVAL, EBUSY,
 * ENOSPC and EACCES: the caller learns the file and errno, the tree is as it was, and the name
 * works again at once.
 */
class FaultInjectionTest {
  static final ContainerSpec EVERY_HIERARCHY =
      ContainerSpec.parse(
          "cpu { limit: 500 max_limit: 1000 } memory { limit: 104857600 swap_limit: 209715200 reservation: 52428800 }"
              + " pids { limit: 100 }");
  static final Errno[] ERRNOS = {Errno.EINVAL, Errno.EBUSY, Errno.ENOSPC, Errno.EACCES};

  /** A fake with {@code /parent}; the API over it. */
  record World(FakeCgroupFs fs, ContainerApi api) {
    static World create() {
      FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
      ContainerApi api = ContainerApi.open(fs);
      api.create("/parent", ContainerSpec.parse("memory { limit: 1073741824 }"));
      return new World(fs, api);
    }
  }

  static int mutationsOf(
      java.util.function.Consumer<World> setUp, java.util.function.Consumer<World> op) {
    World w = World.create();
    setUp.accept(w);
    int before = w.fs().record().count();
    op.accept(w);
    return w.fs().record().count() - before;
  }

  static Stream<Arguments> createFaults() {
    int n = mutationsOf(w -> {}, w -> w.api().create("/parent/job", EVERY_HIERARCHY));
    List<Arguments> out = new ArrayList<>();
    for (int k = 1; k <= n; k++) {
      for (Errno e : ERRNOS) {
        out.add(Arguments.of(k, e));
      }
    }
    return out.stream();
  }

  @Test
  void aCreateTouchingEveryHierarchyHasManyMutationsToBreak() {
    assertThat(mutationsOf(w -> {}, w -> w.api().create("/parent/job", EVERY_HIERARCHY)))
        .isGreaterThan(15);
  }

  @ParameterizedTest(name = "create: mutation {0} fails with {1}")
  @MethodSource("createFaults")
  void aCreateThatFailsAnywhereLeavesTheTreeAsItWasAndTheNameFree(int k, Errno errno) {
    World w = World.create();
    FakeSnapshot before = w.fs().snapshot();
    w.fs().faults().failAt(k, errno);

    LmctfyException e =
        assertThatLmctfyException(() -> w.api().create("/parent/job", EVERY_HIERARCHY))
            .as("create must fail")
            .actual();
    FakeOperation failed = firstFailure(w.fs());
    assertThat(e.errno()).contains(errno);
    assertThat(e.getMessage()).contains(errno.name(), failed.path().value());
    if (failed.file() != null) {
      assertThat(e.file()).hasValueSatisfying(f -> assertThat(f).endsWith(failed.file()));
    }
    assertThat(e.getSuppressed()).as("rollback failures").isEmpty();
    CgroupAssertions.assertThat(w.fs()).matches(before);
    w.api().create("/parent/job", EVERY_HIERARCHY);
    assertThat(w.api().exists("/parent/job")).isTrue();
  }

  static FakeOperation firstFailure(FakeCgroupFs fs) {
    return fs.record().mutations().stream()
        .filter(op -> op.failedWith() != null)
        .findFirst()
        .orElseThrow();
  }

  static Stream<Arguments> destroyFaults() {
    int n = mutationsOf(w -> populate(w), w -> w.api().destroy("/parent/job"));
    List<Arguments> out = new ArrayList<>();
    for (int k = 1; k <= n; k++) {
      for (Errno e : ERRNOS) {
        out.add(Arguments.of(k, e));
      }
    }
    return out.stream();
  }

  /** A job with a child and a process in it; returns the process. */
  static long populate(World w) {
    w.api().create("/parent/job", EVERY_HIERARCHY);
    w.api().create("/parent/job/child", ContainerSpec.parse("pids { limit: 10 }"));
    long pid = w.fs().processes().spawn();
    w.fs()
        .hierarchies()
        .forEach(
            h -> {
              if (!h.has("cpuset")
                  && (h.version() == org.lmctfy.cgroupfs.CgroupVersion.V2
                      || !h.controllers().isEmpty())) {
                try {
                  w.fs()
                      .write(
                          h,
                          org.lmctfy.cgroupfs.CgroupPath.of("/parent/job/child"),
                          "cgroup.procs",
                          Long.toString(pid));
                } catch (java.io.IOException ex) {
                  throw new AssertionError(ex);
                }
              }
            });
    return pid;
  }

  @ParameterizedTest(name = "destroy: mutation {0} fails with {1}")
  @MethodSource("destroyFaults")
  void aDestroyThatFailsAnywhereIsEitherDoneOrFinishedByTheNextDestroy(int k, Errno errno) {
    World w = World.create();
    FakeSnapshot withoutJob = w.fs().snapshot();
    long pid = populate(w);
    w.fs().faults().failAt(k, errno);

    LmctfyException e =
        catchThrowableOfType(LmctfyException.class, () -> w.api().destroy("/parent/job"));

    if (e != null) {
      assertThat(e.getMessage()).contains(errno.name());
      assertThat(w.api().exists("/parent")).isTrue();
      w.api().destroy("/parent/job");
    }
    assertThat(w.api().exists("/parent/job")).isFalse();
    assertThat(w.fs().processes().living()).doesNotContain(pid);
    CgroupAssertions.assertThat(w.fs()).matches(withoutJob);
  }

  @org.junit.jupiter.api.Test
  void aDestroyThatCannotKillLeavesTheContainerWholeAndUsable() {
    World w = World.create();
    long pid = populate(w);
    FakeSnapshot before = w.fs().snapshot();
    w.fs()
        .faults()
        .failWhen(
            op -> op.kind() == FakeOperation.Kind.WRITE && "cgroup.kill".equals(op.file()),
            Errno.EPERM);

    assertThatLmctfyException(() -> w.api().destroy("/parent/job")).hasErrno(Errno.EPERM);
    assertThat(w.api().exists("/parent/job")).isTrue();
    assertThat(w.fs().processes().living()).contains(pid);
    CgroupAssertions.assertThat(w.fs()).matches(before);
    w.api().destroy("/parent/job");
    assertThat(w.api().exists("/parent/job")).isFalse();
  }
}
