package org.lmctfy.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
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
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * Notifications on this machine's kernel (skipped, with the reason, where this machine does not
 * serve it): v1 eventfds for OOM and thresholds, the unified hierarchy's cgroup.events through
 * inotify for empty, removal for destroyed, and a PSI trigger. Containers live below a scratch
 * parent; every process started is killed and the scratch parent removed after each test.
 */
@Tag("kernel")
@Tag("needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
class KernelNotificationsTest extends ApiOnScratch {
  private static final ContainerSpec SMALL =
      ContainerSpec.parse("memory { limit: 8388608 swap_limit: 8388608 }");
  private static final ContainerSpec MEDIUM =
      ContainerSpec.parse("memory { limit: 134217728 swap_limit: 134217728 }");

  private final List<Process> started = new ArrayList<>();

  KernelNotificationsTest() {
    super(ContractBackend.host());
  }

  @AfterEach
  void close() throws Exception {
    try {
      if (api != null) {
        api.close();
        assertThat(Thread.getAllStackTraces().keySet())
            .noneMatch(t -> t.getName().startsWith("lmctfy-notify-"));
      }
    } finally {
      for (Process p : started) {
        kill(p);
      }
    }
  }

  private List<Hierarchy> managed() {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
        .toList();
  }

  /**
   * Starts {@code sh -c script}, moves it into {@code name} in every managed hierarchy but a v1
   * cpuset one (the scratch cpusets hold every cpu), then releases it: the script begins with
   * {@code read go}.
   */
  private Process startInside(String name, String script) throws IOException {
    Process p = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
    started.add(p);
    CgroupPath path = CgroupPath.of(name).under(scratch.path());
    for (Hierarchy h : managed()) {
      if (!h.has("cpuset") || h.version() == CgroupVersion.V2) {
        fs.write(h, path, "cgroup.procs", Long.toString(p.pid()));
      }
    }
    p.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().flush();
    return p;
  }

  private Hierarchy memory() {
    return managed().stream().filter(h -> h.has("memory")).findFirst().orElseThrow();
  }

  @Test
  void aProcessAllocatingPastTheLimitIsAnOomEvent() throws Exception {
    Container job = api.create("/job", SMALL);
    Events events = new Events();
    job.registerNotification(EventSpec.oom(), events);
    Process hog = startInside("/job", "read go; head -c 100M /dev/zero | tail");
    Notification n = events.next();
    assertThat(n.kind()).isEqualTo(Kind.EVENT);
    assertThat(hog.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(hog.exitValue()).isNotZero(); // tail was killed
    CgroupPath path = CgroupPath.of("/job").under(scratch.path());
    if (memory().version() == CgroupVersion.V1) {
      // the v1 eventfd signals as the OOM begins: the kill may not be counted yet when the file is
      // read
      assertThat(n.detail()).matches("under_oom [01], oom_kill [0-9]+");
      assertThat(fs.read(memory(), path, "memory.oom_control")).containsPattern("oom_kill [1-9]");
    } else {
      // v2: memory.events changed, and its oom counter grew
      assertThat(n.detail())
          .matches("oom [1-9][0-9]* \\(\\+[1-9][0-9]*\\), oom_kill [0-9]+ \\(\\+[0-9]+\\)");
      assertThat(fs.read(memory(), path, "memory.events")).containsPattern("oom_kill [1-9]");
    }
    job.destroy();
    assertThat(events.untilLast().kind()).isEqualTo(Kind.DESTROYED);
  }

  @Test
  void aThresholdFiresWhenUsageCrossesItAndWhenItFallsBack() throws Exception {
    Container job = api.create("/job", MEDIUM);
    Events events = new Events();
    job.registerNotification(EventSpec.memoryThreshold(16L << 20), events);
    // tail holds the 40 MiB "line" while it blocks writing it to a pipe nobody reads
    Process holder = startInside("/job", "read go; head -c 40M /dev/zero | tail");
    // the eventfd fires on each crossing; usage can hover at the line, so the direction is read
    // from the usage after the event and only the last crossing after the kill must be downwards
    Notification up = events.next();
    assertThat(up.kind()).isEqualTo(Kind.EVENT);
    assertThat(up.detail()).contains("16777216");
    kill(holder);
    Notification down = events.next();
    for (int i = 0; i < 20 && !down.detail().endsWith("below 16777216"); i++) {
      down = events.next();
    }
    assertThat(down.kind()).isEqualTo(Kind.EVENT);
    assertThat(down.detail()).endsWith("below 16777216");
    job.destroy();
    assertThat(events.untilLast().kind()).isEqualTo(Kind.DESTROYED);
  }

  /** Kills a started shell and everything it started. */
  private static void kill(Process p) throws InterruptedException {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void memoryHighIsAnEventWhenTheKernelThrottlesAtMemoryHighAndNeedsV2() throws Exception {
    if (memory().version() == CgroupVersion.V1) {
      Container job = api.create("/job", MEDIUM);
      LmctfyException e =
          assertThatLmctfyException(
                  () -> job.registerNotification(EventSpec.memoryHigh(), new Events()))
              .hasCode(ErrorCode.FAILED_PRECONDITION)
              .actual();
      assertThat(e.getMessage()).contains("memory_high", "v1", "memory.high");
      return;
    }
    Container job =
        api.create(
            "/job",
            ContainerSpec.parse(
                "memory { limit: 134217728 swap_limit: 134217728 high: 16777216 }"));
    Events events = new Events();
    job.registerNotification(EventSpec.memoryHigh(), events);
    // tail holds a 40 MiB "line": past memory.high, the kernel reclaims and throttles it
    startInside("/job", "read go; head -c 40M /dev/zero | tail");
    Notification n = events.next();
    assertThat(n.kind()).isEqualTo(Kind.EVENT);
    assertThat(n.detail()).matches("high [1-9][0-9]* \\(\\+[1-9][0-9]*\\)");
    CgroupPath path = CgroupPath.of("/job").under(scratch.path());
    assertThat(fs.read(memory(), path, "memory.events")).containsPattern("high [1-9]");
  }

  @Test
  void anEmptiedContainerIsAnEmptyEvent() throws Exception {
    Container job = api.create("/job", MEDIUM);
    Process sleeper = startInside("/job", "read go; exec sleep 1000");
    Events events = new Events();
    job.registerNotification(EventSpec.containerEmpty(), events);
    kill(sleeper);
    Notification n = events.next();
    assertThat(n)
        .isEqualTo(
            new Notification(
                "/job", EventSpec.containerEmpty(), Kind.EVENT, ErrorCode.OK, "populated 0"));
    job.destroy();
    assertThat(events.untilLast().kind()).isEqualTo(Kind.DESTROYED);
    assertThat(events.all()).hasSize(2);
  }

  @Test
  void destroyIsTheLastEventOfEveryRegistrationOfTheContainerAndItsSubcontainers()
      throws Exception {
    Container job = api.create("/job", MEDIUM);
    Container task = api.create("/job/task", SMALL);
    Events destroyed = new Events();
    Events oom = new Events();
    Events empty = new Events();
    Events taskOom = new Events();
    job.registerNotification(EventSpec.containerDestroyed(), destroyed);
    job.registerNotification(EventSpec.oom(), oom);
    job.registerNotification(EventSpec.containerEmpty(), empty);
    task.registerNotification(EventSpec.oom(), taskOom);
    startInside("/job/task", "read go; exec sleep 1000");
    job.destroy();
    for (Events e : List.of(destroyed, oom, taskOom)) {
      assertThat(e.untilLast().kind()).isEqualTo(Kind.DESTROYED);
      assertThat(e.all()).extracting(Notification::kind).containsExactly(Kind.DESTROYED);
    }
    // destroy killed the sleeper first: the container may have been seen empty before it went
    assertThat(empty.untilLast().kind()).isEqualTo(Kind.DESTROYED);
    assertThat(empty.all()).extracting(Notification::kind).endsWith(Kind.DESTROYED);
  }

  @Test
  void aContainerDestroyedByAnotherApiIsReportedDestroyed() throws Exception {
    Container job = api.create("/job", MEDIUM);
    Events destroyed = new Events();
    Events oom = new Events();
    job.registerNotification(EventSpec.containerDestroyed(), destroyed);
    job.registerNotification(EventSpec.oom(), oom);
    try (ContainerApi other = ContainerApi.open(fs, scratch.path())) {
      other.destroy("/job");
    }
    assertThat(destroyed.untilLast().kind())
        .isEqualTo(Kind.DESTROYED); // inotify: the directory went
    assertThat(oom.untilLast().kind())
        .isEqualTo(Kind.DESTROYED); // the kernel signals eventfds on rmdir
  }

  /** The inotify instances this process holds: links in /proc/self/fd to anon_inode:inotify. */
  private static long inotifyInstances() throws IOException {
    try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(
              fd -> {
                try {
                  return Files.readSymbolicLink(fd).toString().equals("anon_inode:inotify");
                } catch (IOException e) {
                  return false; // closed meanwhile, like the descriptor of this listing
                }
              })
          .count();
    }
  }

  /** The harness divides loops by LMCTFY_TEST_SCALE in slow guests (default 1 here). */
  private static int scaled(int n, int atLeast) {
    String scale = System.getenv("LMCTFY_TEST_SCALE");
    return Math.max(
        atLeast, n / (scale == null || scale.isBlank() ? 1 : Integer.parseInt(scale.strip())));
  }

  @Test
  void manyRegistrationsShareOneInotifyInstanceAndTwoThreads() throws Exception {
    // more than fs.inotify.max_user_instances (128 by default), which one instance each would
    // exhaust
    int containers = 50;
    int each = scaled(60, 6);
    long inotifyBefore = inotifyInstances();
    api.create("/m", ContainerSpec.empty());
    List<EventSpec> kinds =
        List.of(EventSpec.containerDestroyed(), EventSpec.containerEmpty(), EventSpec.oom());
    List<Events> all = new ArrayList<>();
    List<Events> emptyOfSeven = new ArrayList<>();
    Process sleeper = null;
    for (int c = 0; c < containers; c++) {
      Container box = api.create("/m/c" + c, MEDIUM);
      if (c == 7) { // populated before its registrations: emptying it is an event for them
        sleeper = startInside("/m/c7", "read go; exec sleep 1000");
      }
      for (int i = 0; i < each; i++) {
        Events events = new Events();
        EventSpec kind = kinds.get(i % kinds.size());
        box.registerNotification(kind, events);
        all.add(events);
        if (c == 7 && kind.equals(EventSpec.containerEmpty())) {
          emptyOfSeven.add(events);
        }
      }
    }
    assertThat(all).hasSizeGreaterThan(128);
    assertThat(FakeNotificationsTest.notifyThreads())
        .containsExactlyInAnyOrder("lmctfy-notify-watch", "lmctfy-notify-deliver");
    assertThat(inotifyInstances() - inotifyBefore).isLessThanOrEqualTo(1);

    kill(sleeper);
    for (Events e : emptyOfSeven) {
      assertThat(e.next())
          .isEqualTo(
              new Notification(
                  "/m/c7", EventSpec.containerEmpty(), Kind.EVENT, ErrorCode.OK, "populated 0"));
    }
    api.destroy("/m");
    for (Events e : all) {
      assertThat(e.untilLast().kind()).isEqualTo(Kind.DESTROYED);
    }
  }

  private static boolean hasCapSysResource() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("CapEff:")) {
        return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << 24)) != 0;
      }
    }
    return false;
  }

  @Test
  void aPsiTriggerFiresUnderCpuPressure() throws Exception {
    Container job = api.create("/job", MEDIUM);
    Events events = new Events();
    EventSpec cpu =
        EventSpec.pressure(
            PressureTrigger.Resource.CPU, PressureTrigger.Kind.SOME, 50_000, 2_000_000);
    job.registerNotification(cpu, events);
    for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors() + 1; i++) {
      startInside("/job", "read go; while :; do :; done");
    }
    Notification n = events.next();
    assertThat(n.kind()).isEqualTo(Kind.EVENT);
    assertThat(n.detail()).startsWith("cpu.pressure: some avg10=");
  }

  @Test
  void aPsiWindowNotAMultipleOfTwoSecondsNeedsCapSysResource() throws Exception {
    Container job = api.create("/job", MEDIUM);
    EventSpec oneSecond =
        EventSpec.pressure(
            PressureTrigger.Resource.MEMORY, PressureTrigger.Kind.SOME, 100_000, 1_000_000);
    if (hasCapSysResource()) {
      job.unregisterNotification(job.registerNotification(oneSecond, new Events()));
      return;
    }
    LmctfyException e =
        assertThatLmctfyException(() -> job.registerNotification(oneSecond, new Events()))
            .hasCode(ErrorCode.INVALID_ARGUMENT)
            .actual();
    assertThat(e.getMessage()).contains("multiple of 2 s", "memory.pressure", "EINVAL");
  }
}
