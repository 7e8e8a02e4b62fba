package org.lmctfy.examples.bench;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;

/**
 * Container lifecycles (create with {@link Benchmarks#SPEC}, destroy) in three shapes, top-level,
 * nested at depth 3 and two threads making siblings, next to a C floor that makes the fewest
 * system calls for the same end state: per container, {@code mkdirat} in each managed hierarchy,
 * {@code openat}+{@code write}+{@code close} of each limit file the library wrote (the same values,
 * recorded from a probe create), {@code unlinkat(AT_REMOVEDIR)} in each hierarchy, relative to
 * parent directories it opened once. The floor times its own loop (its start is outside the
 * measure). Rounds alternate; with strace, both sides' system calls per lifecycle are counted too
 * (strace -c on the library's measuring threads over a window; strace -f -c of the floor minus
 * its run without lifecycles).
 */
final class LifecycleBenchmark {
  static final String FLOOR_C = String.join("\n",
      "#define _GNU_SOURCE",
      "#include <fcntl.h>",
      "#include <pthread.h>",
      "#include <stdio.h>",
      "#include <stdlib.h>",
      "#include <string.h>",
      "#include <sys/stat.h>",
      "#include <time.h>",
      "#include <unistd.h>",
      "/* floor THREADS N NAME H DIR... W (HIERARCHY FILE VALUE)...: each thread t makes and removes",
      "   NAME<t> N times below each DIR, writing each FILE of it; prints the loop's nanoseconds. */",
      "static int threads, n, nh, nw, dirs[64], wh[64];",
      "static char *base, *wf[64], *wv[64];",
      "static void die(const char *what, const char *name) { perror(what); fprintf(stderr, \"%s\\n\", name); exit(1); }",
      "static void *work(void *arg) {",
      "  char name[256], path[64][512];",
      "  snprintf(name, sizeof name, \"%s%ld\", base, (long) arg);",
      "  for (int w = 0; w < nw; w++) snprintf(path[w], sizeof path[w], \"%s/%s\", name, wf[w]);",
      "  for (int i = 0; i < n; i++) {",
      "    for (int h = 0; h < nh; h++) if (mkdirat(dirs[h], name, 0755)) die(\"mkdirat\", name);",
      "    for (int w = 0; w < nw; w++) {",
      "      int fd = openat(dirs[wh[w]], path[w], O_WRONLY | O_CLOEXEC);",
      "      size_t len = strlen(wv[w]);",
      "      if (fd < 0 || write(fd, wv[w], len) != (ssize_t) len) die(\"write\", path[w]);",
      "      close(fd);",
      "    }",
      "    for (int h = 0; h < nh; h++) if (unlinkat(dirs[h], name, AT_REMOVEDIR)) die(\"unlinkat\", name);",
      "  }",
      "  return NULL;",
      "}",
      "int main(int argc, char **argv) {",
      "  int a = 1;",
      "  threads = atoi(argv[a++]); n = atoi(argv[a++]); base = argv[a++]; nh = atoi(argv[a++]);",
      "  for (int h = 0; h < nh; h++, a++) if ((dirs[h] = open(argv[a], O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) die(\"open\", argv[a]);",
      "  nw = atoi(argv[a++]);",
      "  for (int w = 0; w < nw; w++) { wh[w] = atoi(argv[a++]); wf[w] = argv[a++]; wv[w] = argv[a++]; }",
      "  pthread_t tids[64];",
      "  struct timespec s, e;",
      "  clock_gettime(CLOCK_MONOTONIC, &s);",
      "  if (threads == 1) work((void *) 0L);",
      "  else {",
      "    for (long t = 0; t < threads; t++) pthread_create(&tids[t], NULL, work, (void *) t);",
      "    for (int t = 0; t < threads; t++) pthread_join(tids[t], NULL);",
      "  }",
      "  clock_gettime(CLOCK_MONOTONIC, &e);",
      "  printf(\"%lld\\n\", (long long) (e.tv_sec - s.tv_sec) * 1000000000LL + (e.tv_nsec - s.tv_nsec));",
      "  return 0;",
      "}",
      "");

  /** A shape: containers made below {@code parent} (under the scratch parent) by {@code threads} threads at once. */
  record Shape(String title, String parent, int threads) {}

  static final List<Shape> SHAPES = List.of(
      new Shape("top-level", "", 1),
      new Shape("nested, depth 3", "/d1/d2", 1),
      new Shape("two threads, siblings", "", 2));

  /** One row of the table: library and floor per lifecycle, their ratio and system calls. */
  record Row(Shape shape, Timer.Comparison times, Strace.Counts librarySyscalls, Strace.Counts floorSyscalls, int traced) {}

  private final PrintStream out;
  private final CgroupFs fs;
  private final CgroupPath scratch;
  private final ContainerApi api;
  private final java.nio.file.Path floor;

  LifecycleBenchmark(PrintStream out, CgroupFs fs, CgroupPath scratch, ContainerApi api, java.nio.file.Path floor) {
    this.out = out;
    this.fs = fs;
    this.scratch = scratch;
    this.api = api;
    this.floor = floor;
  }

  /** Every shape: {@code ops} lifecycles a round, {@code rounds} rounds; system calls too if {@code strace}. */
  List<Row> run(int ops, int rounds, boolean strace) throws Exception {
    List<Row> rows = new ArrayList<>();
    for (Shape s : SHAPES) {
      rows.add(shape(s, ops, rounds, strace));
    }
    return rows;
  }

  private Row shape(Shape s, int ops, int rounds, boolean strace) throws Exception {
    String prefix = "";
    for (String c : CgroupPath.of(s.parent().isEmpty() ? "/" : s.parent()).components()) {
      prefix += "/" + c;
      api.create(prefix, ContainerSpec.empty());
    }
    List<String> command = floorCommand(s);
    Timer.Comparison times = Timer.compareTimed(rounds, ops,
        n -> runFloor(command, s.threads(), n),
        n -> library(s, n / s.threads(), null));
    Strace.Counts lib = null;
    Strace.Counts raw = null;
    int traced = Math.max(20, ops / 5);
    if (strace) {
      lib = traceLibrary(s, traced);
      List<String> zero = new ArrayList<>(command);
      zero.set(2, "0");
      List<String> some = new ArrayList<>(command);
      some.set(2, Integer.toString(traced / s.threads()));
      raw = Strace.program(some).minus(Strace.program(zero));
    }
    if (!s.parent().isEmpty()) {
      api.destroy("/" + CgroupPath.of(s.parent()).components().get(0));
    }
    Row row = new Row(s, times, lib, raw, traced);
    print(row);
    return row;
  }

  private void print(Row r) {
    String what = "lifecycle " + r.shape().title();
    out.printf("%-46s %9.1f µs %14s %s%n", what + ": C floor", r.times().floor().median(), r.times().floor().spread(),
        r.floorSyscalls() == null ? "" : String.format("%.1f syscalls (%s)",
            (double) r.floorSyscalls().total() / r.traced(), r.floorSyscalls().perOp(r.traced())));
    out.printf("%-46s %9.1f µs %14s %.2f x floor%s%n", what + ": library", r.times().contender().median(),
        r.times().contender().spread(), r.times().ratio(), r.librarySyscalls() == null ? "" : String.format(
            "  %.1f syscalls (%s)", (double) r.librarySyscalls().total() / r.traced(),
            r.librarySyscalls().perOp(r.traced())));
  }

  /** The floor's command line for a shape, with {@code N} at index 2. */
  private List<String> floorCommand(Shape s) throws Exception {
    CgroupPath parent = s.parent().isEmpty() ? scratch : CgroupPath.of(s.parent()).under(scratch);
    List<Hierarchy> hs = fs.hierarchies();
    List<String> cmd = new ArrayList<>(List.of(floor.toString(), Integer.toString(s.threads()), "N", "floor",
        Integer.toString(hs.size())));
    for (Hierarchy h : hs) {
      cmd.add(h.display(parent, null));
    }
    List<String[]> writes = probeWrites(s);
    cmd.add(Integer.toString(writes.size()));
    for (String[] w : writes) {
      cmd.addAll(List.of(w));
    }
    return cmd;
  }

  /** The limit files the library writes into a new container of the shape, and their values: {hierarchy index, file, value}. */
  private List<String[]> probeWrites(Shape s) throws Exception {
    String name = s.parent() + "/probe";
    CgroupPath path = CgroupPath.of(name).under(scratch);
    List<Hierarchy> hs = fs.hierarchies();
    List<String[]> writes = new ArrayList<>();
    OnlyHierarchies recording = new OnlyHierarchies(fs, null) {
      @Override
      void onWrite(Hierarchy h, CgroupPath p, String file, String value) {
        if (p.equals(path)) {
          writes.add(new String[] {Integer.toString(hs.indexOf(h)), file, value});
        }
      }
    };
    ContainerApi probe = ContainerApi.open(recording, scratch);
    probe.create(name, Benchmarks.SPEC);
    probe.destroy(name);
    return writes;
  }

  private static long runFloor(List<String> command, int threads, int ops) throws Exception {
    List<String> cmd = new ArrayList<>(command);
    cmd.set(2, Integer.toString(ops / threads));
    Process p = new ProcessBuilder(cmd).start();
    String nanos = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("the floor failed: " + new String(p.getErrorStream().readAllBytes(),
          StandardCharsets.UTF_8));
    }
    return Long.parseLong(nanos);
  }

  /**
   * {@code perThread} lifecycles on each of the shape's threads at once; nanoseconds from start to
   * the last one's end. With {@code traced} set, strace counts those threads' calls over the loop.
   */
  private long library(Shape s, int perThread, Strace.Counts[] traced) throws Exception {
    int threads = s.threads();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    List<Long> tids = new ArrayList<>();
    Exception[] failure = new Exception[1];
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String name = s.parent() + "/lib" + t;
      Thread w = new Thread(() -> {
        try {
          synchronized (tids) {
            tids.add(Strace.tid());
          }
          ready.countDown();
          go.await();
          for (int i = 0; i < perThread; i++) {
            api.create(name, Benchmarks.SPEC);
            api.destroy(name);
          }
        } catch (Exception e) {
          synchronized (failure) {
            failure[0] = e;
          }
        }
      }, "lifecycle-" + t);
      workers.add(w);
      w.start();
    }
    ready.await();
    Strace.Attached strace = traced == null ? null : Strace.attach(tids);
    long start = System.nanoTime();
    go.countDown();
    for (Thread w : workers) {
      w.join();
    }
    long nanos = System.nanoTime() - start;
    if (strace != null) {
      traced[0] = strace.stop();
    }
    if (failure[0] != null) {
      throw failure[0];
    }
    return nanos;
  }

  private Strace.Counts traceLibrary(Shape s, int ops) throws Exception {
    Strace.Counts[] counts = new Strace.Counts[1];
    library(s, ops / s.threads(), counts);
    return counts[0];
  }
}
