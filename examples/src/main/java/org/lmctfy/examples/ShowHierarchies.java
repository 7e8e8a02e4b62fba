package org.lmctfy.examples;

import java.io.PrintStream;
import java.util.TreeSet;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.ScratchCgroups;

/**
 * Opens the host's cgroups when this process can manage them (root, cgroups mounted), otherwise an
 * in-memory {@link FakeCgroupFs} laid out like this project's machines; says which, and prints the
 * hierarchies it found.
 */
public final class ShowHierarchies {
  private ShowHierarchies() {}

  public static void main(String[] args) throws Exception {
    run(System.out);
  }

  static void run(PrintStream out) throws Exception {
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
    }
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
