package org.lmctfy.examples;

import java.io.PrintStream;
import java.util.TreeSet;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ResourceHandle;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.ScratchCgroups;

/**
 * Opens the host's cgroups when this process can manage them (root, cgroups mounted), otherwise an
 * in-memory {@link FakeCgroupFs} laid out like this project's machines; says which, prints the
 * hierarchies it found, then creates a small container, shows where it landed and destroys it.
 */
public final class ShowHierarchies {
  private ShowHierarchies() {}

  public static void main(String[] args) throws Exception {
    run(System.out);
  }

  public static void run(PrintStream out) throws Exception {
    String unusable = ScratchCgroups.hostUnusableReason();
    CgroupFs fs;
    if (unusable == null) {
      fs = CgroupFs.host();
      out.println("backend: host kernel (cgroups found from /proc/self/mountinfo)");
    } else {
      fs = FakeCgroupFs.create();
      out.println("backend: in-memory fake (FakeCgroupFs), because " + unusable);
    }
    try (ContainerApi api = ContainerApi.open(fs)) {
      print(api.cgroupFs(), out);
      demo(api, out);
    }
  }

  /** Creates a container with cpu and memory limits, shows its cgroups, and destroys it. */
  static void demo(ContainerApi api, PrintStream out) throws Exception {
    String name = "/lmctfy-demo-" + ProcessHandle.current().pid();
    ContainerSpec spec = ContainerSpec.parse("cpu { limit: 500 } memory { limit: 67108864 }");
    try (ResourceHandle<Container> handle = api.createHandle(name, spec)) {
      CgroupFs fs = api.cgroupFs();
      out.println();
      out.println("created " + handle.get().name() + " with " + spec.toText().replaceAll("\\s+", " ").strip() + ":");
      for (Hierarchy h : fs.hierarchies()) {
        CgroupPath path = CgroupPath.of(name);
        if (fs.exists(h, path)) {
          StringBuilder limits = new StringBuilder();
          for (String file : limitFiles(h)) {
            limits.append("  ").append(file).append('=').append(fs.read(h, path, file).strip());
          }
          out.println("  " + h.display(path, null) + limits);
        }
      }
    } // not committed: the handle destroys the container
    out.println("destroyed " + name + "; left behind: " + (api.exists(name) ? "the container (a bug)" : "nothing"));
  }

  /** The files that show the demo's limits in {@code h}: v1 and v2 name them differently. */
  private static java.util.List<String> limitFiles(Hierarchy h) {
    java.util.List<String> files = new java.util.ArrayList<>();
    boolean v1 = h.version() == org.lmctfy.cgroupfs.CgroupVersion.V1;
    if (h.has("cpu")) {
      files.add(v1 ? "cpu.shares" : "cpu.weight");
    }
    if (h.has("memory")) {
      files.add(v1 ? "memory.limit_in_bytes" : "memory.max");
    }
    return files;
  }

  static void print(CgroupFs fs, PrintStream out) throws Exception {
    out.printf("%-14s %-3s %-34s %s%n", "hierarchy", "ver", "mounted at", "controllers");
    for (Hierarchy h : fs.hierarchies()) {
      out.printf("%-14s %-3s %-34s %s%n", h.label(), h.version(), h.mountPoint(),
          h.controllers().isEmpty() ? "-" : String.join(",", new TreeSet<>(h.controllers())));
    }
    out.println("unmounted v1 controllers: " + new TreeSet<>(fs.unmountedControllers()));
  }
}
