package org.lmctfy.examples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.Notification;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.EventSpec;

/**
 * Many notification registrations on one ContainerApi on this machine's kernel: the threads, file
 * descriptors, inotify instances and heap they cost, and the latency of an event: a sleeping
 * process moved out of a container (its unified {@code cgroup.events} reads {@code populated 0})
 * until the listeners of its {@code container_empty} registrations are called; then the time from
 * one destroy of the whole tree until every registration has had its DESTROYED.
 */
final class NotifyBenchmark {
  /** Per container: what its registrations are, round robin. */
  private static final List<EventSpec> KINDS =
      List.of(
          EventSpec.containerEmpty(),
          EventSpec.containerDestroyed(),
          EventSpec.oom(),
          EventSpec.containerEmpty(),
          EventSpec.containerDestroyed());

  private static final ContainerSpec MEMORY = ContainerSpec.parse("memory { limit: 104857600 }");

  private final PrintStream out;
  private final CgroupFs fs;
  private final CgroupPath scratch;

  NotifyBenchmark(PrintStream out, CgroupFs fs, CgroupPath scratch) {
    this.out = out;
    this.fs = fs;
    this.scratch = scratch;
  }

  void run(int registrations, int perContainer, int samples) throws Exception {
    int containers = registrations / perContainer;
    Hierarchy unified =
        fs.hierarchies().stream()
            .filter(h -> h.version() == CgroupVersion.V2)
            .findFirst()
            .orElse(null);
    if (unified == null) {
      out.println("notifications: skipped (no unified hierarchy for container_empty)");
      return;
    }
    try (ContainerApi api = ContainerApi.open(fs, scratch)) {
      api.create("/park", ContainerSpec.empty());
      api.create("/n", ContainerSpec.empty());
      Process sleeper = new ProcessBuilder("sleep", "1000").start();
      try {
        List<Container> boxes = new ArrayList<>(containers);
        for (int c = 0; c < containers; c++) {
          boxes.add(api.create("/n/c" + c, MEMORY)); // oom needs the memory controller, on v2 too
        }
        AtomicLongArray emptiedAt = new AtomicLongArray(containers);
        CountDownLatch destroyed = new CountDownLatch(containers * perContainer);
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        long fds = count("/proc/self/fd", null);
        long inotify = count("/proc/self/fd", "anon_inode:inotify");
        long heap = Benchmarks.usedHeap();
        long start = System.nanoTime();
        for (int c = 0; c < containers; c++) {
          int box = c;
          for (int i = 0; i < perContainer; i++) {
            boxes
                .get(c)
                .registerNotification(
                    KINDS.get(i % KINDS.size()),
                    n -> {
                      if (n.kind() == Notification.Kind.EVENT
                          && n.event().containerEmptyEvent() != null) {
                        emptiedAt.compareAndSet(box, 0, System.nanoTime());
                      } else if (n.kind() == Notification.Kind.DESTROYED) {
                        destroyed.countDown();
                      }
                    });
          }
        }
        double registerMicros = (System.nanoTime() - start) / 1000.0 / registrations;
        long heapAfter = Benchmarks.usedHeap();
        out.printf(
            "%-46s %,d on %,d containers: +%d threads, +%,d fds, +%d inotify instances, %.0f B heap and"
                + " %.1f µs each to register%n",
            "notifications: registrations",
            containers * perContainer,
            containers,
            ManagementFactory.getThreadMXBean().getThreadCount() - threads,
            count("/proc/self/fd", null) - fds,
            count("/proc/self/fd", "anon_inode:inotify") - inotify,
            (heapAfter - heap) / (double) registrations,
            registerMicros);

        double[] latency = new double[samples];
        String pid = Long.toString(sleeper.pid());
        for (int s = 0; s < samples; s++) {
          int c = (int) ((long) s * containers / samples);
          CgroupPath box = CgroupPath.of("/n/c" + c).under(scratch);
          fs.write(unified, box, "cgroup.procs", pid);
          Thread.sleep(
              100); // the watch thread sees it populated before it is emptied (else no change)
          long t0 = System.nanoTime();
          fs.write(unified, CgroupPath.of("/park").under(scratch), "cgroup.procs", pid);
          long deadline = t0 + 10_000_000_000L;
          while (emptiedAt.get(c) == 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
          }
          latency[s] = emptiedAt.get(c) == 0 ? Double.NaN : (emptiedAt.get(c) - t0) / 1000.0;
        }
        double[] seen = Arrays.stream(latency).filter(v -> !Double.isNaN(v)).sorted().toArray();
        out.printf(
            "%-46s median %.0f µs, max %.0f µs over %d events (%d not seen within 10 s: populated and"
                + " emptied before the watch thread read it once)%n",
            "notifications: event latency (empty)",
            seen.length == 0 ? Double.NaN : seen[seen.length / 2],
            seen.length == 0 ? Double.NaN : seen[seen.length - 1],
            seen.length,
            samples - seen.length);

        long t0 = System.nanoTime();
        api.destroy("/n");
        boolean all = destroyed.await(60, TimeUnit.SECONDS);
        out.printf(
            "%-46s %.0f ms until %s of %,d registrations had DESTROYED%n",
            "notifications: destroy all",
            (System.nanoTime() - t0) / 1e6,
            all ? "every one" : "not every one",
            registrations);
      } finally {
        sleeper.destroyForcibly();
        sleeper.waitFor();
        if (api.exists("/n")) {
          api.destroy("/n");
        }
        api.destroy("/park");
      }
    }
  }

  /** Entries of a /proc fd folder, or those linking to {@code target}. */
  private static long count(String dir, String target) throws IOException {
    try (Stream<Path> fds = Files.list(Path.of(dir))) {
      return fds.filter(
              fd -> {
                if (target == null) {
                  return true;
                }
                try {
                  return Files.readSymbolicLink(fd).toString().equals(target);
                } catch (IOException e) {
                  return false;
                }
              })
          .count();
    }
  }
}
