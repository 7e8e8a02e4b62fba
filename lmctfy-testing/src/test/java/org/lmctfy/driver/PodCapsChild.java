package org.lmctfy.driver;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.lmctfy.ContainerApi;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;

/**
 * A program at the root of a cgroup namespace whose ancestor carries the kubelet's caps of a pod
 * with writable cgroups ({@code cgroup.max.descendants} 250, {@code cgroup.max.depth} 50), which it
 * cannot see: creates {@code /c1}, {@code /c2}... until one is refused, then {@code /d1/d2/...}
 * until one is refused, and prints {@code key=value} lines of what it made, the refusals (code and
 * message) and whether the namespace's tree changed at them; an unexpected failure prints {@code
 * FAILED <code>: <message>} and exits 1.
 */
public final class PodCapsChild {
  private PodCapsChild() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (ContainerApi api = ContainerApi.open()) {
      CgroupFs fs = api.cgroupFs();
      Hierarchy unified = fs.hierarchies().get(0);
      int made = 0;
      LmctfyException refusal = null;
      String before = "";
      while (refusal == null && made < 300) {
        before = tree(fs, unified, CgroupPath.root());
        try {
          api.create("/c" + (made + 1), ContainerSpec.empty());
          made++;
        } catch (LmctfyException e) {
          refusal = e;
        }
      }
      out.println("descendants.made=" + made);
      report(out, "descendants", refusal, before.equals(tree(fs, unified, CgroupPath.root())));
      api.destroy("/c1"); // a removed cgroup no longer counts
      api.create("/c" + (made + 1), ContainerSpec.empty());
      out.println("descendants.afterDestroy=" + api.exists("/c" + (made + 1)));
      for (int i = 2; i <= made + 1; i++) {
        api.destroy("/c" + i);
      }

      StringBuilder name = new StringBuilder();
      int levels = 0;
      refusal = null;
      while (refusal == null && levels < 100) {
        before = tree(fs, unified, CgroupPath.root());
        try {
          api.create(name + "/d" + (levels + 1), ContainerSpec.empty());
          name.append("/d").append(++levels);
        } catch (LmctfyException e) {
          refusal = e;
        }
      }
      out.println("depth.made=" + levels);
      report(out, "depth", refusal, before.equals(tree(fs, unified, CgroupPath.root())));
      for (String n = name.toString(); !n.isEmpty(); n = n.substring(0, n.lastIndexOf('/'))) {
        api.destroy(n);
      }
      out.println("children=" + fs.children(unified, CgroupPath.root()));
    } catch (LmctfyException e) {
      out.println("FAILED " + e.code() + ": " + e.getMessage());
      System.exit(1);
    }
  }

  private static void report(PrintStream out, String key, LmctfyException e, boolean unchanged) {
    out.println(key + ".code=" + (e == null ? "none" : e.code()));
    out.println(key + ".refusal=" + (e == null ? "none" : e.getMessage()));
    out.println(key + ".unchanged=" + unchanged);
  }

  /** Every cgroup below {@code p}, depth first, one line each. */
  private static String tree(CgroupFs fs, Hierarchy h, CgroupPath p) throws java.io.IOException {
    StringBuilder b = new StringBuilder();
    for (String c : fs.children(h, p)) {
      b.append(p.resolve(c)).append('\n').append(tree(fs, h, p.resolve(c)));
    }
    return b.toString();
  }
}
