package org.lmctfy.examples;

import java.io.PrintStream;
import java.util.TreeSet;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.ResourceHandle;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.FakeCgroupFs;

/**
 * Opens the host's cgroups with the library's default driver (on a systemd machine, as root or as
 * any user, the systemd driver), says which, prints the hierarchies it found, then creates a small
 * container, shows where it landed and destroys it. Where the host's cgroups cannot be used (none
 * mounted, or this user may make no container here: no systemd user manager, no delegated subtree),
 * it says why and does the same on an in-memory {@link FakeCgroupFs} laid out like this project's
 * machines.
 */
public final class ShowHierarchies {
  private ShowHierarchies() {}

  public static void main(String[] args) {
    ExampleMain.run(
        "ShowHierarchies",
        0,
        args,
        () -> {
          run(System.out);
          return 0;
        });
  }

  public static void run(PrintStream out) throws Exception {
    CgroupFs fs;
    try {
      fs = ContainerApi.hostCgroupFs();
    } catch (java.io.IOException e) {
      onTheFake(out, "no cgroup hierarchy can be read here (" + e.getMessage() + ")");
      return;
    }
    try (ContainerApi api = ContainerApi.open(fs)) {
      out.println(
          "backend: host kernel (cgroups found from /proc/self/mountinfo); container / is "
              + api.root());
      print(api.cgroupFs(), out);
      demo(api, out);
    } catch (LmctfyException e) {
      if (e.code() != ErrorCode.PERMISSION_DENIED && e.code() != ErrorCode.FAILED_PRECONDITION) {
        throw e;
      }
      out.println();
      onTheFake(
          out,
          "the host's cgroups cannot hold a container of uid "
              + fs.effectiveUid()
              + " here: "
              + e.getMessage());
    }
  }

  private static void onTheFake(PrintStream out, String why) throws Exception {
    out.println("backend: in-memory fake (FakeCgroupFs), because " + why);
    try (ContainerApi api = ContainerApi.open(FakeCgroupFs.create())) {
      print(api.cgroupFs(), out);
      demo(api, out);
    }
  }

  /** The leaf the demo moves its unit's processes into on v2 (see {@link #makeRoomOnV2}). */
  static final String LEAF = "lmctfy-supervisor";

  /**
   * On v2 inside a unit (the API's root is this process's own cgroup), the root holds processes and
   * cannot enable controllers for containers; as systemd advises a delegated manager, move them
   * into a leaf first (initMachine with processes_leaf), once: a second run finds the root empty.
   */
  static void makeRoomOnV2(ContainerApi api, PrintStream out) throws Exception {
    CgroupFs fs = api.cgroupFs();
    Hierarchy unified =
        fs.hierarchies().stream()
            .filter(h -> h.version() == org.lmctfy.cgroupfs.CgroupVersion.V2)
            .findFirst()
            .orElse(null);
    if (api.root().isRoot()
        || unified == null
        || !fs.exists(unified, api.root())
        || fs.read(unified, api.root(), "cgroup.procs").isBlank()) {
      // no processes in the way (a systemd driver's unit is made, and its keeper moved, by create)
      return;
    }
    out.println(
        "this process runs in "
            + unified.display(api.root(), null)
            + ", which holds processes: moving them"
            + " into "
            + LEAF
            + "/ (initMachine processes_leaf), so that its containers can have controllers");
    api.initMachine(
        org.lmctfy.spec.InitSpec.parse(
            "processes_leaf: \"" + LEAF + "\" enable_controllers: [cpu, memory]"));
  }

  /**
   * The demo's limits: a cap of half a CPU ({@code max_limit}, in milli-CPUs: CFS quota, as {@code
   * docker --cpus 0.5} or systemd's {@code CPUQuota=50%}; {@code limit} alone would only weigh the
   * container against its siblings) and 64 MiB of memory.
   */
  static final String SPEC = "cpu { max_limit: 500 } memory { limit: 64M }";

  /** Creates a container with cpu and memory limits, shows its cgroups, and destroys it. */
  static void demo(ContainerApi api, PrintStream out) throws Exception {
    makeRoomOnV2(api, out);
    String name = "/lmctfy-demo-" + ProcessHandle.current().pid();
    ContainerSpec spec = ContainerSpec.parse(SPEC);
    try (ResourceHandle<Container> handle = api.createHandle(name, spec)) {
      CgroupFs fs = api.cgroupFs();
      out.println();
      out.println("created " + handle.get().name() + " with " + SPEC + " (half a CPU, 64 MiB):");
      for (Hierarchy h : fs.hierarchies()) {
        CgroupPath path = CgroupPath.of(name).under(api.root());
        if (fs.exists(h, path)) {
          StringBuilder limits = new StringBuilder();
          for (String file : limitFiles(h)) {
            limits.append("  ").append(file).append('=').append(fs.read(h, path, file).strip());
          }
          out.println("  " + h.display(path, null) + limits);
        }
      }
    } // not committed: the handle destroys the container

    // the systemd driver's unit, when it holds no other container, is stopped: it goes with its
    // cgroup
    java.util.List<String> failures = java.util.List.of();
    if (api.root().value().endsWith("/" + org.lmctfy.ApiOptions.DEFAULT_SYSTEMD_UNIT)) {
      org.lmctfy.CleanupReport cleaned = api.cleanup();
      cleaned.removed().forEach(r -> out.println("removed " + r));
      failures = cleaned.failures();
    }
    out.println(
        "destroyed "
            + name
            + "; left behind: "
            + (api.exists(name)
                ? "the container (a bug)"
                : failures.isEmpty() ? "nothing" : "what cleanup could not remove: " + failures));
  }

  /** The files that show the demo's limits in {@code h}: v1 and v2 name them differently. */
  private static java.util.List<String> limitFiles(Hierarchy h) {
    java.util.List<String> files = new java.util.ArrayList<>();
    boolean v1 = h.version() == org.lmctfy.cgroupfs.CgroupVersion.V1;
    if (h.has("cpu")) {
      files.addAll(
          v1
              ? java.util.List.of("cpu.cfs_quota_us", "cpu.cfs_period_us")
              : java.util.List.of("cpu.max"));
    }
    if (h.has("memory")) {
      files.add(v1 ? "memory.limit_in_bytes" : "memory.max");
    }
    return files;
  }

  static void print(CgroupFs fs, PrintStream out) throws Exception {
    out.printf("%-14s %-3s %-34s %s%n", "hierarchy", "ver", "mounted at", "controllers");
    for (Hierarchy h : fs.hierarchies()) {
      out.printf(
          "%-14s %-3s %-34s %s%n",
          h.label(),
          h.version(),
          h.mountPoint(),
          h.controllers().isEmpty() ? "-" : String.join(",", new TreeSet<>(h.controllers())));
    }
    out.println("unmounted v1 controllers: " + new TreeSet<>(fs.unmountedControllers()));
  }
}
