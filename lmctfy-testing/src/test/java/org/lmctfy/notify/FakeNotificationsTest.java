package org.lmctfy.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.Notification;
import org.lmctfy.Notification.Kind;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.EventSpec.PressureTrigger;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/**
 * Every event type on the fake, raised by the test as a downstream user would: the fake wakes the
 * library's watches on the test's thread, so each event is certain to come; the test only waits for
 * it.
 */
class FakeNotificationsTest {
  private static final ContainerSpec MEMORY = ContainerSpec.parse("memory { limit: 104857600 }");
  private static final CgroupPath JOB = CgroupPath.of("/job");

  private FakeCgroupFs fs;
  private ContainerApi api;

  private Container open(FakeLayout layout) {
    fs = FakeCgroupFs.create(layout);
    api = ContainerApi.open(fs);
    return api.create("/job", MEMORY);
  }

  @AfterEach
  void close() {
    if (api != null) {
      api.close();
    }
  }

  private Hierarchy memory() {
    return fs.hierarchy("memory").orElseThrow();
  }

  private Hierarchy unified() {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2)
        .findFirst()
        .orElseThrow();
  }

  /** A fake process moved into {@code path} in every hierarchy. */
  private long spawnIn(CgroupPath path) throws Exception {
    long pid = fs.processes().spawn();
    for (Hierarchy h : fs.hierarchies()) {
      if (!h.controllers().isEmpty() || h.version() == CgroupVersion.V2) {
        fs.write(h, path, "cgroup.procs", Long.toString(pid));
      }
    }
    return pid;
  }

  @Test
  void oomOnV1IsAnEventWithTheKernelsCounters() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Events events = new Events();
    job.registerNotification(EventSpec.oom(), events);
    fs.kernel().raiseOom(memory(), JOB);
    Notification n = events.next();
    assertThat(n)
        .isEqualTo(
            new Notification(
                "/job", EventSpec.oom(), Kind.EVENT, ErrorCode.OK, "under_oom 0, oom_kill 1"));
  }

  @Test
  void oomOnV2IsAnEventWhenMemoryEventsCountersGrow() throws Exception {
    Container job = open(FakeLayout.V2);
    Events events = new Events();
    job.registerNotification(EventSpec.oom(), events);
    fs.kernel().setValue(memory(), JOB, "memory.current", "4096\n"); // a change that is not an OOM
    fs.kernel().raiseOom(memory(), JOB);
    assertThat(events.next().detail()).isEqualTo("oom 1 (+1), oom_kill 1 (+1)");
    job.destroy();
    assertThat(events.untilLast().kind()).isEqualTo(Kind.DESTROYED);
    assertThat(events.all())
        .extracting(Notification::kind)
        .containsExactly(Kind.EVENT, Kind.DESTROYED);
  }

  @Test
  void anOomOfAChildIsAnOomOfItsV2Ancestors() throws Exception {
    Container job = open(FakeLayout.V2);
    api.create("/job/task", MEMORY);
    Events events = new Events();
    job.registerNotification(EventSpec.oom(), events);
    fs.kernel().raiseOom(memory(), JOB.resolve("task"));
    assertThat(events.next().kind()).isEqualTo(Kind.EVENT);
  }

  @Test
  void memoryHighOnV2IsAnEventWhenTheHighCounterGrows() throws Exception {
    Container job = open(FakeLayout.V2);
    Events events = new Events();
    job.registerNotification(EventSpec.memoryHigh(), events);
    fs.kernel().raiseOom(memory(), JOB); // memory.events changed, its high counter did not
    fs.kernel()
        .setValue(memory(), JOB, "memory.events", "low 0\nhigh 3\nmax 0\noom 1\noom_kill 1\n");
    assertThat(events.next())
        .isEqualTo(
            new Notification(
                "/job", EventSpec.memoryHigh(), Kind.EVENT, ErrorCode.OK, "high 3 (+3)"));
    fs.kernel()
        .setValue(memory(), JOB, "memory.events", "low 0\nhigh 4\nmax 0\noom 1\noom_kill 1\n");
    assertThat(events.next().detail()).isEqualTo("high 4 (+1)");
    job.destroy();
    events.untilLast();
    assertThat(events.all())
        .extracting(Notification::kind)
        .containsExactly(Kind.EVENT, Kind.EVENT, Kind.DESTROYED);
  }

  @Test
  void memoryHighNeedsV2Memory() {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    LmctfyException e =
        assertThatLmctfyException(
                () -> job.registerNotification(EventSpec.memoryHigh(), new Events()))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage()).contains("/job", "memory_high", "v1", "memory.high");
  }

  @Test
  void aV1ThresholdFiresWhenUsageCrossesItUpAndDown() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Events events = new Events();
    job.registerNotification(EventSpec.memoryThreshold(1 << 20), events);
    fs.kernel().setValue(memory(), JOB, "memory.usage_in_bytes", "4096\n"); // below: no crossing
    fs.kernel().setValue(memory(), JOB, "memory.usage_in_bytes", "2097152\n");
    assertThat(events.next().detail()).isEqualTo("usage 2097152 bytes, above 1048576");
    fs.kernel().setValue(memory(), JOB, "memory.usage_in_bytes", "8192\n");
    assertThat(events.next().detail()).isEqualTo("usage 8192 bytes, below 1048576");
    job.destroy();
    events.untilLast();
    assertThat(events.all()).hasSize(3);
  }

  @Test
  void aV2ThresholdFiresWhenMemoryCurrentCrossesIt() throws Exception {
    Container job = open(FakeLayout.V2);
    Events events = new Events();
    job.registerNotification(EventSpec.memoryThreshold(1 << 20), events);
    fs.kernel().setValue(memory(), JOB, "memory.current", "1048576\n");
    assertThat(events.next().detail()).isEqualTo("usage 1048576 bytes, above 1048576");
  }

  @Test
  void emptyFiresWhenTheLastProcessExitsOnTheUnifiedHierarchy() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    long first = spawnIn(JOB);
    long second = spawnIn(JOB);
    Events events = new Events();
    job.registerNotification(EventSpec.containerEmpty(), events);
    fs.processes().exit(first);
    fs.processes().exit(second);
    assertThat(events.next())
        .isEqualTo(
            new Notification(
                "/job", EventSpec.containerEmpty(), Kind.EVENT, ErrorCode.OK, "populated 0"));
    job.destroy();
    events.untilLast();
    assertThat(events.all())
        .extracting(Notification::kind)
        .containsExactly(Kind.EVENT, Kind.DESTROYED);
  }

  @Test
  void emptyCountsProcessesOfSubcontainers() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    api.create("/job/task", MEMORY);
    spawnIn(JOB.resolve("task"));
    Events events = new Events();
    job.registerNotification(EventSpec.containerEmpty(), events);
    fs.processes().exitAll(unified(), JOB.resolve("task"));
    assertThat(events.next().detail()).isEqualTo("populated 0");
  }

  @Test
  void emptyWithoutAUnifiedHierarchyReadsCgroupProcs() throws Exception {
    Container job = open(FakeLayout.V1);
    api.create("/job/task", MEMORY);
    spawnIn(JOB.resolve("task"));
    Events events = new Events();
    job.registerNotification(EventSpec.containerEmpty(), events);
    fs.processes().exitAll(memory(), JOB.resolve("task"));
    assertThat(events.next().detail()).isEqualTo("no processes left");
  }

  @Test
  void aPressureTriggerFiresWhenRaised() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Events events = new Events();
    EventSpec cpu =
        EventSpec.pressure(
            PressureTrigger.Resource.CPU, PressureTrigger.Kind.SOME, 150_000, 2_000_000);
    job.registerNotification(cpu, events);
    fs.kernel().raisePressure(unified(), JOB, "cpu.pressure");
    assertThat(events.next().detail()).startsWith("cpu.pressure: some avg10=");
  }

  @Test
  void pressureNeedsAUnifiedHierarchy() {
    Container job = open(FakeLayout.V1);
    EventSpec io =
        EventSpec.pressure(
            PressureTrigger.Resource.IO, PressureTrigger.Kind.FULL, 150_000, 2_000_000);
    LmctfyException e =
        assertThatLmctfyException(() -> job.registerNotification(io, new Events()))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage()).contains("io.pressure", "no unified hierarchy");
  }

  @Test
  void memoryEventsNeedTheMemoryController() {
    fs =
        FakeCgroupFs.builder()
            .layout(FakeLayout.V2)
            .rootSubtreeControl(java.util.Set.of("cpu"))
            .build();
    api = ContainerApi.open(fs);
    Container c = api.create("/c", ContainerSpec.parse("cpu { limit: 500 }"));
    LmctfyException e =
        assertThatLmctfyException(
                () -> c.registerNotification(EventSpec.memoryThreshold(4096), new Events()))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage()).contains("memory controller");
  }

  @Test
  void destroyIsTheLastNotificationOfEveryRegistrationOfTheContainerAndItsSubcontainers()
      throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Container task = api.create("/job/task", MEMORY);
    Events jobOom = new Events();
    Events jobDestroyed = new Events();
    Events taskOom = new Events();
    job.registerNotification(EventSpec.oom(), jobOom);
    job.registerNotification(EventSpec.containerDestroyed(), jobDestroyed);
    task.registerNotification(EventSpec.oom(), taskOom);
    fs.kernel().raiseOom(memory(), JOB);
    assertThat(jobOom.next().kind()).isEqualTo(Kind.EVENT);
    job.destroy();
    assertThat(jobOom.untilLast())
        .isEqualTo(
            new Notification("/job", EventSpec.oom(), Kind.DESTROYED, ErrorCode.OK, "destroyed"));
    assertThat(jobDestroyed.untilLast().kind()).isEqualTo(Kind.DESTROYED);
    assertThat(taskOom.untilLast().containerName()).isEqualTo("/job/task");
    assertThat(jobDestroyed.all()).hasSize(1);
    assertThat(taskOom.all()).extracting(Notification::kind).containsExactly(Kind.DESTROYED);
  }

  @Test
  void aContainerDestroyedByAnotherApiIsReportedDestroyed() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Events events = new Events();
    job.registerNotification(EventSpec.containerDestroyed(), events);
    try (ContainerApi other = ContainerApi.open(fs)) {
      other.destroy("/job");
    }
    assertThat(events.untilLast().kind()).isEqualTo(Kind.DESTROYED);
  }

  @Test
  void closeEndsEveryRegistrationWithCancelledAndStopsItsThreads() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Events oom = new Events();
    Events empty = new Events();
    job.registerNotification(EventSpec.oom(), oom);
    job.registerNotification(EventSpec.containerEmpty(), empty);
    api.close();
    assertThat(oom.all())
        .containsExactly(
            new Notification(
                "/job",
                EventSpec.oom(),
                Kind.ENDED,
                ErrorCode.CANCELLED,
                "the ContainerApi was closed"));
    assertThat(empty.all()).extracting(Notification::status).containsExactly(ErrorCode.CANCELLED);
    assertThat(notifyThreads()).isEmpty();
    assertThatLmctfyException(() -> job.registerNotification(EventSpec.oom(), new Events()))
        .hasCode(ErrorCode.FAILED_PRECONDITION);
  }

  @Test
  void closeSoonAfterTheLastRegistrationEndedStillWaitsForItsStoppingThreads() {
    for (int i = 0; i < 1000; i++) {
      Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
      job.unregisterNotification(job.registerNotification(EventSpec.oom(), new Events()));
      // the stopping engine's threads end a moment later; close at varying instants of that end
      java.util.concurrent.locks.LockSupport.parkNanos((i % 40) * 25_000L);
      api.close();
      assertThat(notifyThreads()).as("round %d", i).isEmpty();
    }
  }

  static List<String> notifyThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .map(Thread::getName)
        .filter(n -> n.startsWith("lmctfy-notify-"))
        .toList();
  }

  /** The library's threads end shortly after its last registration: waits for that end state. */
  static List<String> notifyThreadsOnceIdle() throws InterruptedException {
    for (long end = System.nanoTime() + 5_000_000_000L;
        !notifyThreads().isEmpty() && System.nanoTime() < end; ) {
      Thread.sleep(10);
    }
    return notifyThreads();
  }

  @Test
  void listenersRunOnTheLibrarysDeliveryThread() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Events events = new Events();
    job.registerNotification(EventSpec.oom(), events);
    fs.kernel().raiseOom(memory(), JOB);
    events.next();
    assertThat(events.threads()).containsExactly("lmctfy-notify-deliver");
  }

  @Test
  void everyRegistrationOfAnApiSharesTwoThreadsWhichEndWithTheLastRegistration() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    List<Events> all = new java.util.ArrayList<>();
    List<Long> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Events e = new Events();
      all.add(e);
      ids.add(
          job.registerNotification(i % 2 == 0 ? EventSpec.oom() : EventSpec.containerEmpty(), e));
    }
    assertThat(notifyThreads())
        .containsExactlyInAnyOrder("lmctfy-notify-watch", "lmctfy-notify-deliver");
    fs.kernel().raiseOom(memory(), JOB);
    for (int i = 0; i < all.size(); i += 2) {
      assertThat(all.get(i).next().kind()).isEqualTo(Kind.EVENT);
    }
    ids.forEach(job::unregisterNotification);
    assertThat(notifyThreadsOnceIdle()).isEmpty();
    Events again = new Events();
    job.registerNotification(EventSpec.oom(), again); // a new registration starts them again
    fs.kernel().raiseOom(memory(), JOB);
    assertThat(again.next().kind()).isEqualTo(Kind.EVENT);
  }

  @Test
  void afterUnregisterTheListenerIsNeverCalledAndItsThreadIsGone() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Events events = new Events();
    long id = job.registerNotification(EventSpec.oom(), events);
    job.unregisterNotification(id);
    fs.kernel().raiseOom(memory(), JOB);
    job.destroy();
    assertThat(notifyThreadsOnceIdle()).isEmpty();
    assertThat(events.all()).isEmpty();
    job = api.create("/job", MEMORY);
    job.unregisterNotification(id); // ended: nothing to do
  }

  @Test
  void unregisterWaitsForTheRunningListener() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<String> finished = new java.util.concurrent.CopyOnWriteArrayList<>();
    long id =
        job.registerNotification(
            EventSpec.oom(),
            n -> {
              inside.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              finished.add(n.detail());
            });
    fs.kernel().raiseOom(memory(), JOB);
    inside.await();
    Thread self = Thread.currentThread();
    Thread releaser =
        new Thread(
            () -> {
              while (self.getState() != Thread.State.WAITING) {
                Thread.onSpinWait(); // until unregister waits for the listener
              }
              release.countDown();
            });
    releaser.start();
    job.unregisterNotification(id);
    assertThat(finished).containsExactly("under_oom 0, oom_kill 1");
    releaser.join();
  }

  @Test
  void aListenerMayUnregisterItselfAndIsNotCalledAgain() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    List<Notification> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    long[] id = new long[1];
    CountDownLatch done = new CountDownLatch(1);
    synchronized (id) {
      id[0] =
          job.registerNotification(
              EventSpec.oom(),
              n -> {
                seen.add(n);
                synchronized (id) {
                  job.unregisterNotification(id[0]);
                }
                done.countDown();
              });
    }
    fs.kernel().raiseOom(memory(), JOB);
    done.await();
    job.destroy();
    // the delivery thread cannot wait for itself: it ends once the listener has returned
    assertThat(notifyThreadsOnceIdle()).isEmpty();
    assertThat(seen).extracting(Notification::kind).containsExactly(Kind.EVENT);
  }

  @Test
  void aListenerThatThrowsKeepsItsRegistrationAndOthers() throws Exception {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Events thrower = new Events();
    Events other = new Events();
    job.registerNotification(
        EventSpec.oom(),
        n -> {
          thrower.onEvent(n);
          throw new IllegalStateException("a listener bug");
        });
    job.registerNotification(EventSpec.oom(), other);
    fs.kernel().raiseOom(memory(), JOB);
    thrower.next();
    fs.kernel().raiseOom(memory(), JOB);
    assertThat(thrower.next().detail()).isEqualTo("under_oom 0, oom_kill 2");
    assertThat(other.next().kind()).as("the other registration goes on").isEqualTo(Kind.EVENT);
    job.destroy();
    assertThat(thrower.untilLast().kind()).isEqualTo(Kind.DESTROYED);
    assertThat(other.untilLast().kind()).isEqualTo(Kind.DESTROYED);
    assertThat(other.all())
        .extracting(Notification::kind)
        .startsWith(Kind.EVENT)
        .endsWith(Kind.DESTROYED);
  }

  @Test
  void registeringOnAMissingContainerIsNotFound() {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    job.destroy();
    assertThatLmctfyException(() -> job.registerNotification(EventSpec.oom(), new Events()))
        .hasCode(ErrorCode.NOT_FOUND);
  }

  @Test
  void unregisteringAnUnknownIdIsNotFound() {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    assertThatLmctfyException(() -> job.unregisterNotification(42)).hasCode(ErrorCode.NOT_FOUND);
  }

  @Test
  void anIdOfAnotherContainerIsNotFoundThere() {
    Container job = open(FakeLayout.HYBRID_HUGETLB_V2);
    Container other = api.create("/other", MEMORY);
    long id = job.registerNotification(EventSpec.oom(), new Events());
    assertThatLmctfyException(() -> other.unregisterNotification(id)).hasCode(ErrorCode.NOT_FOUND);
  }
}
