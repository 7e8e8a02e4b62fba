package org.lmctfy.examples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.lmctfy.ContainerApi;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;

/**
 * {@code api.stats(names, SUMMARY)} and {@code FULL} of many containers on every hierarchy this
 * machine has, next to raw reads ({@code Files.readAllBytes}) of exactly the files the library read
 * for them (recorded through a view of the CgroupFs; a file it found absent is not read raw), in
 * alternating rounds; and the bytes each allocates per container, from {@code ThreadMXBean}'s
 * per-thread allocation counter.
 */
final class StatsBenchmark {
  private final PrintStream out;
  private final CgroupFs fs;
  private final CgroupPath scratch;
  private final int containers;

  StatsBenchmark(PrintStream out, CgroupFs fs, CgroupPath scratch, int containers) {
    this.out = out;
    this.fs = fs;
    this.scratch = scratch;
    this.containers = containers;
  }

  void run(int rounds) throws Exception {
    Set<String> read = new LinkedHashSet<>();
    OnlyHierarchies recording =
        new OnlyHierarchies(fs, null) {
          @Override
          void onRead(Hierarchy h, CgroupPath p, String file) {
            read.add(h.display(p, file));
          }
        };
    try (ContainerApi api = ContainerApi.open(recording, scratch)) {
      api.create("/s", ContainerSpec.empty());
      List<String> names = new ArrayList<>();
      try {
        for (int i = 0; i < containers; i++) {
          names.add("/s/c" + i);
          api.create(names.get(i), Benchmarks.SPEC);
        }
        for (StatsType type : StatsType.values()) {
          read.clear();
          api.stats(names, type);
          List<Path> files =
              read.stream().map(Path::of).filter(Files::exists).toList(); // not the absent ones
          Timer.Comparison both =
              Timer.compare(rounds, containers, n -> raw(files), n -> api.stats(names, type));
          long rawBytes = allocated(n -> raw(files));
          long libBytes = allocated(n -> api.stats(names, type));
          String what = String.format("stats %s of %,d: ", type, containers);
          out.printf(
              "%-46s %9.1f µs %14s 1.00 (%d files a container, %.1f KB allocated a container)%n",
              what + "raw reads",
              both.floor().median(),
              both.floor().spread(),
              files.size() / containers,
              rawBytes / 1024.0 / containers);
          out.printf(
              "%-46s %9.1f µs %14s %.2f x raw (%.1f KB allocated a container)%n",
              what + "library, one call",
              both.contender().median(),
              both.contender().spread(),
              both.ratio(),
              libBytes / 1024.0 / containers);
        }
      } finally {
        api.destroy("/s");
      }
    }
  }

  private static void raw(List<Path> files) throws IOException {
    for (Path p : files) {
      Files.readAllBytes(p);
    }
  }

  /**
   * The bytes this thread allocates while {@code round} runs once (after the warm-up of the
   * comparison).
   */
  static long allocated(Timer.Round round) throws Exception {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(id);
    round.run(1);
    return threads.getThreadAllocatedBytes(id) - before;
  }
}
