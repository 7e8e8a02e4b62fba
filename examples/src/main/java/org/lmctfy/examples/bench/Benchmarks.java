package org.lmctfy.examples.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The benchmarks of docs/benchmarks.md: the library next to a raw Java NIO floor on this machine's
 * kernel (under a scratch parent it removes), how per-operation cost grows with the number of
 * containers, stats of many containers next to raw reads of the same files (time and bytes
 * allocated), many notification registrations (threads, descriptors, heap, event latency), the
 * fake's speed, and the heap a Container handle keeps. Prints a table of figures and ratios.
 *
 * <pre>
 * java -Xms1g -Xmx1g -cp examples/target/lmctfy.jar org.lmctfy.examples.bench.Benchmarks [--quick]
 * </pre>
 *
 * <p>A fixed 1 GiB heap keeps the young generation in memory the JVM has touched: on a VM that
 * reclaims idle guest memory, a growing default heap pays page faults that swamp the fake's
 * figures.
 */
public final class Benchmarks {
  static final List<String> FIVE = List.of("cpu", "cpuacct", "memory", "freezer", "pids");
  static final ContainerSpec SPEC =
      ContainerSpec.parse("cpu { limit: 500 } memory { limit: 104857600 } pids { limit: 100 }");

  /** The parts {@code --only=} can choose, all by default. */
  static final List<String> PARTS = List.of("lifecycle", "scale", "stats", "notify", "fake");

  private final PrintStream out;
  private final boolean quick;
  private final List<String> parts;

  private Benchmarks(PrintStream out, boolean quick, List<String> parts) {
    this.out = out;
    this.quick = quick;
    this.parts = parts;
  }

  /** {@code [--quick] [--only=lifecycle,scale,stats,notify,fake]}. */
  public static void main(String[] args) throws Exception {
    List<String> parts = PARTS;
    for (String a : args) {
      if (a.startsWith("--only=")) {
        parts = List.of(a.substring("--only=".length()).split(","));
      }
    }
    new Benchmarks(System.out, List.of(args).contains("--quick"), parts).run();
  }

  void run() throws Exception {
    out.printf(
        "machine: %d cpus, Linux %s, Java %s%n",
        Runtime.getRuntime().availableProcessors(),
        Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip(),
        System.getProperty("java.version"));
    out.printf("%-46s %12s %14s %s%n", "benchmark", "median", "rounds", "ratio");
    String unusable = ScratchCgroups.hostUnusableReason();
    if (unusable == null) {
      if (parts.contains("lifecycle") || parts.contains("scale")) {
        CgroupFs host = new OnlyHierarchies(ContainerApi.hostCgroupFs(), FIVE);
        try (ScratchCgroups scratch = ScratchCgroups.on(host)) {
          new KernelBenchmarks(out, host, scratch.path(), quick)
              .run(parts.contains("lifecycle"), parts.contains("scale"));
        }
      }
      CgroupFs all =
          ContainerApi
              .hostCgroupFs(); // stats and notifications on every hierarchy, as users have them
      try (ScratchCgroups scratch = ScratchCgroups.on(all)) {
        if (parts.contains("stats")) {
          new StatsBenchmark(out, all, scratch.path(), quick ? 200 : 1000).run(quick ? 3 : 7);
        }
        if (parts.contains("notify")) {
          new NotifyBenchmark(out, all, scratch.path())
              .run(quick ? 1_000 : 10_000, 10, quick ? 10 : 50);
        }
      }
    } else {
      out.println("kernel benchmarks skipped: " + unusable);
    }
    if (parts.contains("fake")) {
      fake();
      memory();
      notificationMemory();
    }
  }

  /** Create and destroy on the fake, as downstream test suites do thousands of times. */
  private void fake() throws Exception {
    FakeCgroupFs fake = FakeCgroupFs.create();
    ContainerApi api = ContainerApi.open(fake);
    int ops = quick ? 2_000 : 20_000;
    Timer.Result r =
        Timer.measure(
            5,
            ops,
            n -> {
              // as a fresh fake per test would be: the record of mutations grows with them
              fake.record().clear();
              for (int i = 0; i < n; i++) {
                api.create("/job", SPEC);
                api.destroy("/job");
              }
            });
    out.printf(
        "%-46s %9.1f µs %14s %,.0f lifecycles/s%n",
        "fake: create+destroy (cpu, memory, pids)", r.median(), r.spread(), 1_000_000 / r.median());
  }

  /** Heap kept by Container handles. */
  private void memory() throws Exception {
    ContainerApi api = ContainerApi.open(FakeCgroupFs.create());
    api.create("/job", ContainerSpec.empty());
    int n = 100_000;
    List<Container> handles = new ArrayList<>(n);
    long before = usedHeap();
    for (int i = 0; i < n; i++) {
      handles.add(api.get("/job"));
    }
    long after = usedHeap();
    out.printf(
        "%-46s %9.0f B  %14s %s%n",
        "heap per Container handle",
        (after - before) / (double) n - 4,
        "",
        "(list slot of 4 B excluded)");
    if (handles.isEmpty()) {
      throw new IllegalStateException("handles were collected");
    }
  }

  /** Heap kept by registered notifications, on the fake; they share two threads. */
  private void notificationMemory() throws Exception {
    try (ContainerApi api = ContainerApi.open(FakeCgroupFs.create())) {
      Container job = api.create("/job", ContainerSpec.parse("memory { limit: 104857600 }"));
      int n = 1_000;
      List<Long> ids = new ArrayList<>(n);
      int threads = Thread.activeCount();
      long before = usedHeap();
      for (int i = 0; i < n; i++) {
        ids.add(job.registerNotification(EventSpec.memoryThreshold(50L << 20), e -> {}));
      }
      long after = usedHeap();
      out.printf(
          "%-46s %9.0f B  %14s %s%n",
          "heap per registered notification",
          (after - before) / (double) n - 4,
          "",
          String.format("(+%d threads for %,d registrations)", Thread.activeCount() - threads, n));
      ids.forEach(job::unregisterNotification);
    }
  }

  static long usedHeap() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }
}
