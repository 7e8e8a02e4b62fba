package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.LmctfyException;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeOperation;
import org.lmctfy.testing.FakeSnapshot;

/** Every write of an update fails in turn: the container's values are the values before it. */
class UpdateFaultInjectionTest {
  static final ContainerSpec BEFORE =
      ContainerSpec.parse(
          "cpu { limit: 500 max_limit: 2000 mask: \"0\" } "
              + "memory { limit: 40960000 swap_limit: 81920000 reservation: 4096000 swappiness: 30 } pids { limit: 50 } "
              + "device { rules { permission: DENY type: ALL access: \"rwm\" } "
              + "rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: \"rw\" } } owner: 1000 children_limit: 5");
  static final ContainerSpec AFTER =
      ContainerSpec.parse(
          "cpu { limit: 2000 max_limit: -1 mask: \"0-1\" } "
              + "memory { limit: 409600000 swap_limit: 819200000 oom_kill_disable: true } pids { limit: 500 } "
              + "blockio { weight: 200 } "
              + "device { rules { permission: DENY type: ALL access: \"rwm\" } "
              + "rules { permission: ALLOW type: CHAR major: 1 minor: 5 access: \"rwm\" } } owner: 2000 owner_group: 2000");

  /**
   * The same on pure v2, where the device rules are the cgroup's device filter (an eBPF program).
   */
  static final ContainerSpec BEFORE_V2 =
      ContainerSpec.parse(
          "cpu { limit: 500 max_limit: 2000 } "
              + "memory { limit: 40960000 swap_limit: 81920000 reservation: 4096000 } pids { limit: 50 } "
              + "device { rules { permission: DENY type: ALL access: \"rwm\" } "
              + "rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: \"rw\" } } owner: 1000 children_limit: 5");

  static final ContainerSpec AFTER_V2 =
      ContainerSpec.parse(
          "cpu { limit: 2000 max_limit: -1 } "
              + "memory { limit: 409600000 swap_limit: 819200000 } pids { limit: 500 } "
              + "device { rules { permission: DENY type: ALL access: \"rwm\" } "
              + "rules { permission: ALLOW type: CHAR major: 1 minor: 5 access: \"rwm\" } } owner: 2000 owner_group: 2000");

  static Stream<Arguments> faults() {
    List<Arguments> out = new ArrayList<>();
    for (FakeLayout layout : new FakeLayout[] {FakeLayout.HYBRID_HUGETLB_V2, FakeLayout.V2}) {
      for (UpdatePolicy policy : UpdatePolicy.values()) {
        FakeCgroupFs fs = FakeCgroupFs.create(layout);
        Container job = ContainerApi.open(fs).create("/job", before(layout));
        int before = fs.record().count();
        job.update(after(layout), policy);
        if (layout == FakeLayout.V2
            && fs.record().mutations().stream()
                .noneMatch(op -> op.kind() == FakeOperation.Kind.DEVICE_FILTER)) {
          throw new AssertionError(
              "the v2 update sets no device filter: its faults would not be tried");
        }
        for (int k = 1; k <= fs.record().count() - before; k++) {
          for (Errno errno : new Errno[] {Errno.EINVAL, Errno.EBUSY}) {
            out.add(Arguments.of(layout, policy, k, errno));
          }
        }
      }
    }
    return out.stream();
  }

  static ContainerSpec before(FakeLayout layout) {
    return layout == FakeLayout.V2 ? BEFORE_V2 : BEFORE;
  }

  static ContainerSpec after(FakeLayout layout) {
    return layout == FakeLayout.V2 ? AFTER_V2 : AFTER;
  }

  @ParameterizedTest(name = "{0} {1}: mutation {2} fails with {3}")
  @MethodSource("faults")
  void anUpdateThatFailsAnywherePutsEveryValueBack(
      FakeLayout layout, UpdatePolicy policy, int k, Errno errno) {
    FakeCgroupFs fs = FakeCgroupFs.create(layout);
    ContainerApi api = ContainerApi.open(fs);
    ContainerSpec was = before(layout);
    ContainerSpec now = after(layout);
    Container job = api.create("/job", was);
    FakeSnapshot before = fs.snapshot();
    fs.faults().failAt(k, errno);

    LmctfyException e = catchThrowableOfType(LmctfyException.class, () -> job.update(now, policy));

    assertThat(e).isNotNull();
    FakeOperation failed =
        fs.record().mutations().stream()
            .filter(op -> op.failedWith() != null)
            .findFirst()
            .orElseThrow();
    assertThat(e.errno()).contains(errno);
    assertThat(e.getMessage()).contains(errno.name(), failed.path().value());
    assertThat(e.getSuppressed()).as("values not restored").isEmpty();
    CgroupAssertions.assertThat(fs).matches(before);
    assertThat(job.spec()).isEqualTo(api.normalise(was));
  }
}
