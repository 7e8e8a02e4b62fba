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
 * nested at depth 3 and two threads making siblings, next to a C floor that makes the fewest system
 * calls for the same end state: per container, {@code mkdirat} in each managed hierarchy, {@code
 * openat}+{@code write}+{@code close} of each limit file the library wrote (the same values,
 * recorded from a probe create), {@code unlinkat(AT_REMOVEDIR)} in each hierarchy, relative to
 * parent directories it opened once. The floor times its own loop (its start is outside the
 * measure). Rounds alternate; with strace, both sides' system calls per lifecycle are counted too
 * (strace -c on the library's measuring threads over a window; strace -f -c of the floor minus its
 * run without lifecycles).
 */
final class LifecycleBenchmark {
  static final String FLOOR_C =
      String.join(
          "\n",
          "#define _GNU_SOURCE",
          "#include <fcntl.h>",
          "#include <pthread.h>",
          "#include <stdio.h>",
          "#include <stdlib.h>",
          "#include <string.h>",
          "#include <sys/stat.h>",
          "#include <sys/xattr.h>",
          "#include <time.h>",
          "#include <unistd.h>",
          "/* floor THREADS N NAME H DIR... W (HIERARCHY FILE VALUE)...: each thread t makes and removes",
          "   NAME<t> N times below each DIR, writing each FILE of it; prints the loop's nanoseconds.",
          "   Built with GUARDED, it also makes the library's guarantee calls, each once where the library",
          "   makes it: per create a lock and its release (fcntl F_OFD_SETLK on a byte of one lock file), the",
          "   existence check (access), the intent marker on the parent (setxattr, removexattr), the",
          "   ownership marker (setxattr); per destroy a lock and its release, the owner of the directory",
          "   looked at twice (statx), the ownership marker read (getxattr), the intent marker on the",
          "   parent (setxattr, removexattr). */",
          "static int threads, n, nh, nw, dirs[64], wh[64], lockfd = -1;",
          "static char *base, *wf[64], *wv[64], *dirpath[64];",
          "static void die(const char *what, const char *name) { perror(what); fprintf(stderr, \"%s\\n\", name); exit(1); }",
          "#ifdef GUARDED",
          "static void lockbyte(long t, short type) {",
          "  struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = t, .l_len = 1};",
          "  if (fcntl(lockfd, F_OFD_SETLK, &fl)) die(\"fcntl\", \"lock\");",
          "}",
          "#endif",
          "static void *work(void *arg) {",
          "  char name[256], path[64][512];",
          "  snprintf(name, sizeof name, \"%s%ld\", base, (long) arg);",
          "  for (int w = 0; w < nw; w++) snprintf(path[w], sizeof path[w], \"%s/%s\", name, wf[w]);",
          "#ifdef GUARDED",
          "  char child[512], procs[512], intent[300], owner[] = \"lmctfy fields=cpu.max_limit,memory.limit,pids.limit\", got[256];",
          "  snprintf(child, sizeof child, \"%s/%s\", dirpath[0], name);",
          "  snprintf(procs, sizeof procs, \"%s/cgroup.procs\", child);",
          "  snprintf(intent, sizeof intent, \"user.lmctfy.intent.%s\", name);",
          "  struct statx sx;",
          "#endif",
          "  for (int i = 0; i < n; i++) {",
          "#ifdef GUARDED",
          "    lockbyte((long) arg, F_WRLCK);",
          "    if (access(procs, F_OK) == 0) die(\"access\", procs);",
          "    if (setxattr(dirpath[0], intent, \"create\", 6, XATTR_CREATE)) die(\"setxattr\", dirpath[0]);",
          "#endif",
          "    for (int h = 0; h < nh; h++) if (mkdirat(dirs[h], name, 0755)) die(\"mkdirat\", name);",
          "#ifdef GUARDED",
          "    if (setxattr(child, \"user.lmctfy.owner\", owner, strlen(owner), XATTR_CREATE)) die(\"setxattr\", child);",
          "#endif",
          "    for (int w = 0; w < nw; w++) {",
          "      int fd = openat(dirs[wh[w]], path[w], O_WRONLY | O_CLOEXEC);",
          "      size_t len = strlen(wv[w]);",
          "      if (fd < 0 || write(fd, wv[w], len) != (ssize_t) len) die(\"write\", path[w]);",
          "      close(fd);",
          "    }",
          "#ifdef GUARDED",
          "    if (removexattr(dirpath[0], intent)) die(\"removexattr\", dirpath[0]);",
          "    lockbyte((long) arg, F_UNLCK);",
          "    lockbyte((long) arg, F_WRLCK);",
          "    for (int k = 0; k < 2; k++) if (statx(AT_FDCWD, child, AT_SYMLINK_NOFOLLOW, STATX_UID, &sx)) die(\"statx\", child);",
          "    if (getxattr(child, \"user.lmctfy.owner\", got, sizeof got) < 0) die(\"getxattr\", child);",
          "    if (setxattr(dirpath[0], intent, \"destroy\", 7, XATTR_CREATE)) die(\"setxattr\", dirpath[0]);",
          "#endif",
          "    for (int h = 0; h < nh; h++) if (unlinkat(dirs[h], name, AT_REMOVEDIR)) die(\"unlinkat\", name);",
          "#ifdef GUARDED",
          "    if (removexattr(dirpath[0], intent)) die(\"removexattr\", dirpath[0]);",
          "    lockbyte((long) arg, F_UNLCK);",
          "#endif",
          "  }",
          "  return NULL;",
          "}",
          "int main(int argc, char **argv) {",
          "  int a = 1;",
          "  threads = atoi(argv[a++]); n = atoi(argv[a++]); base = argv[a++]; nh = atoi(argv[a++]);",
          "  for (int h = 0; h < nh; h++, a++) {",
          "    dirpath[h] = argv[a];",
          "    if ((dirs[h] = open(argv[a], O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) die(\"open\", argv[a]);",
          "  }",
          "  nw = atoi(argv[a++]);",
          "  for (int w = 0; w < nw; w++) { wh[w] = atoi(argv[a++]); wf[w] = argv[a++]; wv[w] = argv[a++]; }",
          "#ifdef GUARDED",
          "  char lockpath[600];",
          "  snprintf(lockpath, sizeof lockpath, \"/tmp/lmctfy-bench-floor-%d.locks\", (int) getpid());",
          "  if ((lockfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) < 0) die(\"open\", lockpath);",
          "  unlink(lockpath);",
          "#endif",
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

  /** The floor with the library's guarantee calls (see {@link #FLOOR_C}'s comment). */
  static final String GUARDED_FLOOR_C = "#define GUARDED 1\n" + FLOOR_C;

  /**
   * A shape: containers made below {@code parent} (under the scratch parent) by {@code threads}
   * threads at once.
   */
  record Shape(String title, String parent, int threads) {}

  static final List<Shape> SHAPES =
      List.of(
          new Shape("top-level", "", 1),
          new Shape("nested, depth 3", "/d1/d2", 1),
          new Shape("two threads, siblings", "", 2));

  /**
   * One row of the table: library and floor per lifecycle, their ratio and system calls; the
   * guarded floor (the floor with the library's guarantee calls) against the library, or null.
   */
  record Row(
      Shape shape,
      Timer.Comparison times,
      Strace.Counts librarySyscalls,
      Strace.Counts floorSyscalls,
      int traced,
      Timer.Comparison guarded,
      Strace.Counts guardedSyscalls) {}

  private final PrintStream out;
  private final CgroupFs fs;
  private final CgroupPath scratch;
  private final ContainerApi api;
  private final java.nio.file.Path floor;
  private final java.nio.file.Path guardedFloor;

  /**
   * @param guardedFloor {@link #GUARDED_FLOOR_C} compiled, or null to leave it out
   */
  LifecycleBenchmark(
      PrintStream out,
      CgroupFs fs,
      CgroupPath scratch,
      ContainerApi api,
      java.nio.file.Path floor,
      java.nio.file.Path guardedFloor) {
    this.out = out;
    this.fs = fs;
    this.scratch = scratch;
    this.api = api;
    this.floor = floor;
    this.guardedFloor = guardedFloor;
  }

  /**
   * Every shape: {@code ops} lifecycles a round, {@code rounds} rounds; system calls too if {@code
   * strace}.
   */
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
    Timer.Comparison times =
        Timer.compareTimed(
            rounds,
            ops,
            n -> runFloor(command, s.threads(), n),
            n -> library(s, n / s.threads(), null));
    List<String> guardedCommand = null;
    Timer.Comparison guarded = null;
    if (guardedFloor != null) {
      guardedCommand = new ArrayList<>(command);
      guardedCommand.set(0, guardedFloor.toString());
      List<String> g = guardedCommand;
      guarded =
          Timer.compareTimed(
              rounds,
              ops,
              n -> runFloor(g, s.threads(), n),
              n -> library(s, n / s.threads(), null));
    }
    Strace.Counts lib = null;
    Strace.Counts raw = null;
    Strace.Counts guardedRaw = null;
    int traced = Math.max(20, ops / 5);
    if (strace) {
      lib = traceLibrary(s, traced);
      raw = traceFloor(command, traced / s.threads());
      guardedRaw = guardedCommand == null ? null : traceFloor(guardedCommand, traced / s.threads());
    }
    if (!s.parent().isEmpty()) {
      api.destroy("/" + CgroupPath.of(s.parent()).components().get(0));
    }
    Row row = new Row(s, times, lib, raw, traced, guarded, guardedRaw);
    print(row);
    return row;
  }

  private void print(Row r) {
    String what = "lifecycle " + r.shape().title();
    out.printf(
        "%-46s %9.1f µs %14s %s%n",
        what + ": C floor",
        r.times().floor().median(),
        r.times().floor().spread(),
        r.floorSyscalls() == null
            ? ""
            : String.format(
                "%.1f syscalls (%s)",
                (double) r.floorSyscalls().total() / r.traced(),
                r.floorSyscalls().perOp(r.traced())));
    out.printf(
        "%-46s %9.1f µs %14s %.2f x floor%s%n",
        what + ": library",
        r.times().contender().median(),
        r.times().contender().spread(),
        r.times().ratio(),
        r.librarySyscalls() == null
            ? ""
            : String.format(
                "  %.1f syscalls (%s)",
                (double) r.librarySyscalls().total() / r.traced(),
                r.librarySyscalls().perOp(r.traced())));
    if (r.guarded() != null) {
      out.printf(
          "%-46s %9.1f µs %14s %.2f x floor; the library %.2f x it%s%n",
          what + ": C floor + guarantees",
          r.guarded().floor().median(),
          r.guarded().floor().spread(),
          r.guarded().floor().median() / r.times().floor().median(),
          r.guarded().ratio(),
          r.guardedSyscalls() == null
              ? ""
              : String.format(
                  "  %.1f syscalls (%s)",
                  (double) r.guardedSyscalls().total() / r.traced(),
                  r.guardedSyscalls().perOp(r.traced())));
    }
  }

  /**
   * strace's counts of the floor {@code command} making {@code n} lifecycles a thread, less its
   * start.
   */
  private static Strace.Counts traceFloor(List<String> command, int n) throws Exception {
    List<String> zero = new ArrayList<>(command);
    zero.set(2, "0");
    List<String> some = new ArrayList<>(command);
    some.set(2, Integer.toString(n));
    return Strace.program(some).minus(Strace.program(zero));
  }

  /** The floor's command line for a shape, with {@code N} at index 2. */
  private List<String> floorCommand(Shape s) throws Exception {
    CgroupPath parent = s.parent().isEmpty() ? scratch : CgroupPath.of(s.parent()).under(scratch);
    List<Hierarchy> hs = fs.hierarchies();
    List<String> cmd =
        new ArrayList<>(
            List.of(
                floor.toString(),
                Integer.toString(s.threads()),
                "N",
                "floor",
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

  /**
   * The limit files the library writes into a new container of the shape, and their values:
   * {hierarchy index, file, value}.
   */
  private List<String[]> probeWrites(Shape s) throws Exception {
    String name = s.parent() + "/probe";
    CgroupPath path = CgroupPath.of(name).under(scratch);
    List<Hierarchy> hs = fs.hierarchies();
    List<String[]> writes = new ArrayList<>();
    OnlyHierarchies recording =
        new OnlyHierarchies(fs, null) {
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
      throw new IllegalStateException(
          "the floor failed: "
              + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
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
      Thread w =
          new Thread(
              () -> {
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
              },
              "lifecycle-" + t);
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
