package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.EventSpec.PressureTrigger;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSnapshot;

/**
 * The library asks a CgroupFs for its optional capabilities; one it lacks is UNIMPLEMENTED and
 * changes nothing.
 */
class CapabilitiesTest {
  private static final String DEVICES =
      "device { rules { permission: DENY type: ALL access: \"rwm\" } "
          + "rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: \"rw\" } }";

  /** {@code fake}, forwarded, as a backend that names no optional capability. */
  private static CgroupFs withoutCapabilities(FakeCgroupFs fake) {
    return (CgroupFs)
        Proxy.newProxyInstance(
            CgroupFs.class.getClassLoader(),
            new Class<?>[] {CgroupFs.class},
            (proxy, method, args) -> {
              if (method.getName().equals("capabilities")) {
                return Set.of();
              }
              try {
                return method.invoke(fake, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void theFakeAndItsUserViewNameTheirCapabilities() {
    FakeCgroupFs fake = FakeCgroupFs.create(FakeLayout.V2);
    assertThat(fake.capabilities())
        .containsExactlyInAnyOrder(
            CgroupFs.Capability.DEVICE_FILTERS,
            CgroupFs.Capability.EVENT_CONTROL,
            CgroupFs.Capability.PRESSURE_TRIGGERS);
    assertThat(fake.asUser(1000, 1000).capabilities())
        .containsExactly(CgroupFs.Capability.DEVICE_FILTERS);
  }

  @Test
  void deviceRulesOnV2WithoutDeviceFiltersAreUnimplementedAndChangeNothing() {
    FakeCgroupFs fake = FakeCgroupFs.create(FakeLayout.V2);
    ContainerApi api = ContainerApi.open(withoutCapabilities(fake));
    FakeSnapshot before = fake.snapshot();

    assertThatLmctfyException(() -> api.create("/job", ContainerSpec.parse(DEVICES)))
        .hasCode(ErrorCode.UNIMPLEMENTED)
        .hasMessageContaining("DEVICE_FILTERS");

    CgroupAssertions.assertThat(fake).matches(before);
    Container job = api.create("/job", ContainerSpec.parse("pids { limit: 5 }"));
    assertThat(job.spec().device()).isNull();
  }

  @Test
  void eventfdAndPsiNotificationsWithoutTheCapabilityAreUnimplemented() {
    FakeCgroupFs v1 = FakeCgroupFs.create(FakeLayout.V1);
    Container onV1 =
        ContainerApi.open(withoutCapabilities(v1))
            .create("/job", ContainerSpec.parse("memory { limit: 104857600 }"));
    assertThatLmctfyException(() -> onV1.registerNotification(EventSpec.oom(), n -> {}))
        .hasCode(ErrorCode.UNIMPLEMENTED)
        .hasMessageContaining("EVENT_CONTROL");
    assertThatLmctfyException(
            () -> onV1.registerNotification(EventSpec.memoryThreshold(4096), n -> {}))
        .hasCode(ErrorCode.UNIMPLEMENTED)
        .hasMessageContaining("EVENT_CONTROL");

    FakeCgroupFs v2 = FakeCgroupFs.create(FakeLayout.V2);
    Container onV2 =
        ContainerApi.open(withoutCapabilities(v2))
            .create("/job", ContainerSpec.parse("memory { limit: 104857600 }"));
    EventSpec pressure =
        EventSpec.pressure(
            PressureTrigger.Resource.MEMORY, PressureTrigger.Kind.SOME, 150_000, 2_000_000);
    assertThatLmctfyException(() -> onV2.registerNotification(pressure, n -> {}))
        .hasCode(ErrorCode.UNIMPLEMENTED)
        .hasMessageContaining("PRESSURE_TRIGGERS");
  }
}
