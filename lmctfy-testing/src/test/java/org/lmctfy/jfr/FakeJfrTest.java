package org.lmctfy.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.EventSpec.PressureTrigger;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The JFR events on the fake (hybrid: v1 memory), and the pressure event (v2 only) on a v2 fake.
 */
class FakeJfrTest extends JfrContract {
  FakeJfrTest() {
    super(ContractBackend.fake(FakeLayout.HYBRID_HUGETLB_V2));
  }

  @Override
  void runOutOfMemory(Container job) {
    FakeCgroupFs fake = (FakeCgroupFs) fs;
    fake.kernel()
        .raiseOom(
            fake.hierarchy("memory").orElseThrow(),
            scratch.path().resolve(job.name().substring(1)));
  }

  @Test
  void aMemoryHighIsAnEventWithTheHighCounter() throws Exception {
    FakeCgroupFs v2 = FakeCgroupFs.create(FakeLayout.V2);
    try (Recorded r = Recorded.start();
        org.lmctfy.ContainerApi v2api = org.lmctfy.ContainerApi.open(v2)) {
      Container job = v2api.create("/h", LIMITED);
      long id = job.registerNotification(EventSpec.memoryHigh(), n -> {});
      Hierarchy memory = v2.hierarchy("memory").orElseThrow();
      CgroupPath h = CgroupPath.of("/h");
      v2.kernel().setValue(memory, h, "memory.current", "33554432\n");
      v2.kernel().setValue(memory, h, "memory.events", "low 0\nhigh 2\nmax 0\noom 0\noom_kill 0\n");
      RecordedEvent e = r.next(Recorded.MEMORY_HIGH, "/h");
      assertThat(e.getLong("registration")).isEqualTo(id);
      assertThat(e.getLong("highEvents")).isEqualTo(2);
      assertThat(e.getLong("memoryUsage")).isEqualTo(32L << 20);
    }
  }

  @Test
  void aPressureTriggerIsAnEventWithTheTrigger() throws Exception {
    FakeCgroupFs v2 = FakeCgroupFs.create(FakeLayout.V2);
    try (Recorded r = Recorded.start();
        org.lmctfy.ContainerApi v2api = org.lmctfy.ContainerApi.open(v2)) {
      Container job = v2api.create("/p", LIMITED);
      PressureTrigger trigger =
          new PressureTrigger(
              PressureTrigger.Resource.MEMORY, PressureTrigger.Kind.FULL, 150_000, 2_000_000);
      long id =
          job.registerNotification(
              EventSpec.pressure(
                  trigger.resource(), trigger.kind(), trigger.thresholdUs(), trigger.windowUs()),
              n -> {});
      Hierarchy unified =
          v2.hierarchies().stream()
              .filter(h -> h.version() == CgroupVersion.V2)
              .findFirst()
              .orElseThrow();
      v2.kernel().raisePressure(unified, CgroupPath.of("/p"), "memory.pressure");
      RecordedEvent e = r.next(Recorded.PRESSURE, "/p");
      assertThat(e.getLong("registration")).isEqualTo(id);
      assertThat(e.getString("resource")).isEqualTo("memory");
      assertThat(e.getString("stall")).isEqualTo("full");
      assertThat(e.getDuration("threshold").toMillis()).isEqualTo(150);
      assertThat(e.getDuration("window").toMillis()).isEqualTo(2000);
    }
  }
}
