package org.lmctfy.examples.bench;

import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;

/**
 * Per-operation cost of create, get, list, stats and destroy at 100, 1,000 and 10,000 nested
 * containers (parents of children), the library's and then, at the same scale, a raw NIO floor's
 * doing the same work on plain directories, in alternating rounds (medians): whatever the kernel's
 * own cost does as cgroups pile up shows in the floor's growth.
 */
final class ScaleBenchmark {
  private static final String[] OPS = {"create", "get", "list", "stats", "destroy"};

  /** The files a SUMMARY reads on the five hierarchies, as in the stats benchmark. */
  static final String[][] STATS_FILES = {
    {"cpuacct", "cpuacct.usage"},
    {"cpuacct", "cpuacct.usage_percpu"},
    {"cpuacct", "cpuacct.usage_user"},
    {"cpuacct", "cpuacct.usage_sys"},
    {"memory", "memory.usage_in_bytes"},
    {"memory", "memory.max_usage_in_bytes"},
    {"memory", "memory.limit_in_bytes"},
    {"memory", "memory.failcnt"},
    {"memory", "memory.stat"},
    {"memory", "memory.oom_control"},
    {"pids", "pids.current"},
    {"pids", "pids.max"}
  };

  private final PrintStream out;
  private final CgroupFs fs;
  private final CgroupPath scratch;
  private final ContainerApi api;

  ScaleBenchmark(PrintStream out, CgroupFs fs, CgroupPath scratch, ContainerApi api) {
    this.out = out;
    this.fs = fs;
    this.scratch = scratch;
    this.api = api;
  }

  void run(int[][] shapes, int rounds) throws Exception {
    double[][] lib = new double[shapes.length][];
    double[][] raw = new double[shapes.length][];
    for (int s = 0; s < shapes.length; s++) {
      double[][] libRounds = new double[rounds][];
      double[][] rawRounds = new double[rounds][];
      for (int r = 0; r < rounds; r++) { // alternating, as the other comparisons
        libRounds[r] = library(shapes[s][0], shapes[s][1]);
        rawRounds[r] = raw(shapes[s][0], shapes[s][1]);
      }
      lib[s] = medians(libRounds);
      raw[s] = medians(rawRounds);
    }
    for (int o = 0; o < OPS.length; o++) {
      print("scale: " + OPS[o] + " per container (floor)", shapes, lib, raw, o);
    }
  }

  /** Per operation, the median over the rounds. */
  private static double[] medians(double[][] rounds) {
    double[] out = new double[OPS.length];
    for (int o = 0; o < OPS.length; o++) {
      double[] column = new double[rounds.length];
      for (int r = 0; r < rounds.length; r++) {
        column[r] = rounds[r][o];
      }
      Arrays.sort(column);
      out[o] = column[rounds.length / 2];
    }
    return out;
  }

  /**
   * Library and floor at each scale, and the growth of each from the last scale but one to the
   * last.
   */
  private void print(String what, int[][] shapes, double[][] lib, double[][] raw, int op) {
    StringBuilder sb = new StringBuilder();
    for (int s = 0; s < shapes.length; s++) {
      sb.append(
          String.format(
              "%,d: %.0f (%.0f) µs  ", shapes[s][0] * shapes[s][1], lib[s][op], raw[s][op]));
    }
    int last = shapes.length - 1;
    double growth = lib[last][op] / lib[last - 1][op];
    double floor = raw[last][op] / raw[last - 1][op];
    out.printf("%-46s %s growth %.2f x (floor %.2f x)%n", what, sb, growth, floor);
  }

  private double[] library(int parents, int children) throws Exception {
    List<String> parentNames = new ArrayList<>();
    List<String> all = new ArrayList<>();
    for (int p = 0; p < parents; p++) {
      parentNames.add("/p" + p);
      for (int c = 0; c < children; c++) {
        all.add("/p" + p + "/c" + c);
      }
    }
    for (String p : parentNames) {
      api.create(p, ContainerSpec.empty());
    }
    int n = all.size();
    double create = Timer.once(n, k -> all.forEach(c -> api.create(c, Benchmarks.SPEC)));
    double get = Timer.once(n, k -> all.forEach(api::get));
    double list =
        Timer.once(n, k -> parentNames.forEach(p -> api.get(p).listSubcontainers(ListPolicy.SELF)));
    double stats = Timer.once(n, k -> api.stats(all, StatsType.SUMMARY));
    double destroy = Timer.once(n, k -> parentNames.forEach(api::destroy));
    return new double[] {create, get, list, stats, destroy};
  }

  /**
   * The same work on plain directories: mkdir and the three writes, stat, readdir, reads, rmdir.
   */
  private double[] raw(int parents, int children) throws Exception {
    List<Hierarchy> hs = fs.hierarchies();
    List<List<Path>> parentDirs = new ArrayList<>();
    List<List<Path>> all = new ArrayList<>();
    for (int p = 0; p < parents; p++) {
      parentDirs.add(dirs(hs, "/r" + p));
      for (int c = 0; c < children; c++) {
        all.add(dirs(hs, "/r" + p + "/c" + c));
      }
    }
    for (List<Path> p : parentDirs) {
      for (Path d : p) {
        Files.createDirectory(d);
      }
    }
    int cpu = index(hs, "cpu");
    int memory = index(hs, "memory");
    int pids = index(hs, "pids");
    int n = all.size();
    double create =
        Timer.once(
            n,
            k -> {
              for (List<Path> c : all) {
                for (Path d : c) {
                  Files.createDirectory(d);
                }
                Files.writeString(c.get(cpu).resolve("cpu.shares"), "512");
                Files.writeString(c.get(memory).resolve("memory.limit_in_bytes"), "104857600");
                Files.writeString(c.get(pids).resolve("pids.max"), "100");
              }
            });
    double get =
        Timer.once(
            n,
            k -> {
              for (List<Path> c : all) {
                for (Path d : c) {
                  Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS);
                }
              }
            });
    double list =
        Timer.once(
            n,
            k -> {
              for (List<Path> p : parentDirs) {
                for (Path d : p) {
                  try (DirectoryStream<Path> entries = Files.newDirectoryStream(d)) {
                    entries.forEach(e -> {});
                  }
                }
              }
            });
    double stats =
        Timer.once(
            n,
            k -> {
              for (List<Path> c : all) {
                for (String[] f : STATS_FILES) {
                  Files.readAllBytes(c.get(index(hs, f[0])).resolve(f[1]));
                }
              }
            });
    double destroy =
        Timer.once(
            n,
            k -> {
              for (List<Path> c : all) {
                for (Path d : c) {
                  Files.delete(d);
                }
              }
              for (List<Path> p : parentDirs) {
                for (Path d : p) {
                  Files.delete(d);
                }
              }
            });
    return new double[] {create, get, list, stats, destroy};
  }

  private List<Path> dirs(List<Hierarchy> hs, String name) {
    List<Path> out = new ArrayList<>();
    for (Hierarchy h : hs) {
      out.add(Path.of(h.display(CgroupPath.of(name).under(scratch), null)));
    }
    return out;
  }

  private static int index(List<Hierarchy> hs, String controller) {
    for (int i = 0; i < hs.size(); i++) {
      if (hs.get(i).has(controller)) {
        return i;
      }
    }
    throw new IllegalStateException("no " + controller + " hierarchy in " + hs);
  }
}
