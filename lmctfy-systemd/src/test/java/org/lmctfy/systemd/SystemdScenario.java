package org.lmctfy.systemd;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.lmctfy.ApiOptions;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.RunSpec;

/**
 * What a program does under systemd, run by the kernel tests in a unit of their choosing ({@code
 * systemd-run}, as root or as a user) with plain {@code ContainerApi.open()}: no initMachine, no
 * options, and the class path of a program that follows the README (see {@link
 * SystemdGuest#classPath}). Prints {@code key=value} lines the test checks, first its own cgroup
 * and pid ({@code self.cgroup}, {@code self.pid}); a failure prints {@code FAILED <code>:
 * <message>} and exits 1.
 *
 * <ul>
 *   <li>{@code lifecycle}: create with cpu, memory and pids limits, run, stats, pause, resume,
 *       destroy, and what each left in the kernel's files; {@code lmctfy.service} as its manager
 *       shows it meanwhile; after the API is closed, the {@code lmctfy*} units PID 1 and (not root)
 *       the user's manager list ({@code closed.system.units}, {@code closed.user.units}).
 *   <li>{@code without-module} (run without lmctfy-systemd): reads, the first create and
 *       initMachine, and this process's own cgroup afterwards.
 *   <li>{@code create <name>} / {@code destroy <name>} / {@code cleanup} / {@code reads}: one step
 *       each.
 *   <li>{@code cpuset}: a spec with a cpu mask.
 *   <li>{@code loop <file> <names...>}: create then destroy each name and clean up, until killed,
 *       writing {@code ready} to the file first; {@code rounds <n> <names...>} n times.
 *   <li>{@code init-lifecycle}, {@code cgroupfs-reload}, {@code destroy-all}, {@code oom}: see
 *       each.
 * </ul>
 */
public final class SystemdScenario {
  static final ContainerSpec LIMITS =
      ContainerSpec.parse("cpu { max_limit: 500 } memory { limit: 64M } pids { limit: 64 }");

  private SystemdScenario() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    ApiOptions options =
        args[0].equals("cgroupfs-reload")
            ? ApiOptions.builder().driver(ApiOptions.Driver.CGROUPFS).build()
            : ApiOptions.DEFAULTS;
    out.println("self.cgroup=" + ownCgroup());
    out.println("self.pid=" + ProcessHandle.current().pid());
    try (ContainerApi api = ContainerApi.open(options)) {
      out.println("root=" + api.root());
      switch (args[0]) {
        case "init-lifecycle" -> { // the README's recipe of before: initMachine first, then as ever
          api.initMachine(
              org.lmctfy.spec.InitSpec.parse(
                  "processes_leaf: \"supervisor\" enable_controllers: [cpu, memory, pids]"));
          lifecycle(api, out);
        }
        case "cgroupfs-reload" -> cgroupfsReload(api, out);
        case "destroy-all" -> {
          for (String name : api.get("/").listSubcontainers(ListPolicy.SELF)) {
            api.destroy(name);
            out.println("destroyed=" + name);
          }
        }
        case "rounds" -> {
          int n = Integer.parseInt(args[1]);
          List<String> names = List.of(args).subList(2, args.length);
          for (int i = 0; i < n; i++) {
            round(api, names);
            CleanupReport report = api.cleanup();
            report.failures().forEach(f -> out.println("failure=" + f));
          }
          out.println("rounds=" + n);
        }
        case "oom" -> {
          Container small =
              api.create("/small", ContainerSpec.parse("memory { limit: 32M swap_limit: 32M }"));
          api.create("/other", LIMITS);
          ContainerProcess hog =
              small.run(
                  List.of("/bin/sh", "-c", "x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done"),
                  RunSpec.inherit());
          out.println("hog.status=" + hog.waitFor());
          out.println("small.oom_kill=" + small.stats(StatsType.FULL).memory().oomKills());
          api.destroy("/small");
        }
        case "lifecycle" -> lifecycle(api, out);
        case "without-module" -> withoutModule(api, out);
        case "create" -> {
          api.create(args[1], LIMITS);
          out.println("created=" + args[1]);
        }
        case "destroy" -> {
          api.destroy(args[1]);
          out.println("destroyed=" + args[1]);
        }
        case "cleanup" -> {
          CleanupReport report = api.cleanup();
          report.removed().forEach(r -> out.println("removed=" + r));
          report.failures().forEach(f -> out.println("failure=" + f));
        }
        case "reads" -> {
          out.println("list=" + api.get("/").listSubcontainers(ListPolicy.RECURSIVE));
          out.println("exists=" + api.exists("/job"));
          for (String name : api.get("/").listSubcontainers(ListPolicy.RECURSIVE)) {
            out.println("spec " + name + "=" + api.get(name).spec().toString().replace('\n', ' '));
            out.println("stats " + name + "=" + (api.get(name).stats(StatsType.SUMMARY) != null));
          }
          try {
            out.println("detect=" + api.detect(0));
          } catch (LmctfyException e) {
            out.println("detect=" + e.code());
          }
        }
        case "cpuset" -> {
          try {
            api.create("/pinned", ContainerSpec.parse("cpu { mask: \"0\" }"));
            out.println("cpuset=created");
          } catch (LmctfyException e) {
            out.println("cpuset=" + e.code() + ": " + e.getMessage());
          }
        }
        case "refused" -> {
          // a spec the kernel refuses, on a machine where the unit does not run yet
          try {
            api.create("/refused", ContainerSpec.parse("cpu { mask: \"63\" }"));
            out.println("refused=created");
          } catch (LmctfyException e) {
            out.println("refused=" + e.code());
          }
        }
        case "loop" -> loop(api, Path.of(args[1]), List.of(args).subList(2, args.length));
        default -> throw new IllegalArgumentException(args[0]);
      }
    } catch (LmctfyException e) {
      out.println("FAILED " + e.code() + ": " + e.getMessage());
      System.exit(1);
    }
    if (args[0].equals("lifecycle")) {
      // the API is closed: what systemd lists now, while this JVM still runs (a unit that has
      // stopped may be listed until its manager unloads it: waited for, 5 s)
      for (int i = 0; i < 50 && units(uid() != 0).contains("lmctfy.service"); i++) {
        Thread.sleep(100);
      }
      out.println("closed.system.units=" + String.join(" ", units(false)));
      if (uid() != 0) {
        out.println("closed.user.units=" + String.join(" ", units(true)));
      }
    }
  }

  private static void lifecycle(ContainerApi api, PrintStream out) throws Exception {
    CgroupFs fs = api.cgroupFs();
    Hierarchy unified = fs.hierarchies().get(0);
    Container job = api.create("/job", LIMITS);
    CgroupPath path = CgroupPath.of("/job").under(api.root());
    out.println("cgroup=" + path);
    for (String file : List.of("memory.max", "cpu.max", "pids.max")) {
      out.println(file + "=" + fs.read(unified, path, file).strip());
    }
    out.println(
        "root.subtree_control=" + fs.read(unified, api.root(), "cgroup.subtree_control").strip());
    out.println("root.controllers=" + fs.read(unified, api.root(), "cgroup.controllers").strip());
    out.println(
        "root.owner="
            + Files.getAttribute(SYSFS.resolve(api.root().value().substring(1)), "unix:uid"));
    out.println(
        "root.procs=" + fs.read(unified, api.root(), "cgroup.procs").strip().replace('\n', ' '));
    for (String leaf : List.of("lmctfy-keeper", "lmctfy-supervisor")) {
      CgroupPath leafPath = api.root().resolve(leaf);
      if (fs.exists(unified, leafPath)) {
        out.println(leaf + ".procs=" + fs.read(unified, leafPath, "cgroup.procs").strip());
      }
    }
    // lmctfy.service as its manager (PID 1 for root, the user's own otherwise) shows it meanwhile
    for (String line :
        systemctlOutput(
            uid() != 0,
            "show",
            "lmctfy.service",
            "-p",
            "ActiveState",
            "-p",
            "Delegate",
            "-p",
            "ControlGroup",
            "-p",
            "Type")) {
      out.println("unit." + line);
    }
    ContainerProcess p =
        job.run(List.of("/bin/sh", "-c", "cat /proc/self/cgroup; exit 3"), RunSpec.inherit());
    out.println(
        "run.output=" + new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8).strip());
    out.println("run.status=" + p.waitFor());
    ContainerProcess sleeper = job.run(List.of("/bin/sleep", "1000"), RunSpec.detached());
    job.pause();
    out.println("paused.freeze=" + fs.read(unified, path, "cgroup.freeze").strip());
    out.println(
        "paused.events=" + fs.read(unified, path, "cgroup.events").strip().replace('\n', ' '));
    job.resume();
    out.println("resumed.freeze=" + fs.read(unified, path, "cgroup.freeze").strip());
    ContainerStats stats = job.stats(StatsType.SUMMARY);
    out.println("stats.memory=" + (stats.memory() != null ? stats.memory().usage() : null));
    out.println("stats.pids=" + (stats.pids() != null ? stats.pids().current() : null));
    out.println("pid=" + sleeper.pid());
    job.destroy();
    out.println("destroyed.exists=" + fs.exists(unified, path));
    out.println(
        "sleeper.alive="
            + ProcessHandle.of(sleeper.pid()).map(ProcessHandle::isAlive).orElse(false));
  }

  /**
   * Creates then destroys each name, then cleans up (which stops the unit, so the next round starts
   * it again: a SIGKILL lands in the unit's start and stop as often as in the containers' writes).
   */
  private static void loop(ContainerApi api, Path ready, List<String> names) throws Exception {
    Files.writeString(ready, "ready\n");
    while (true) {
      round(api, names);
      api.cleanup();
    }
  }

  private static void round(ContainerApi api, List<String> names) {
    for (String name : names) {
      call(() -> api.create(name, LIMITS));
    }
    for (int i = names.size() - 1; i >= 0; i--) {
      String name = names.get(i);
      call(() -> api.destroy(name));
    }
  }

  /**
   * The cgroupfs driver in this process's own unit without Delegate=: initMachine moves it into a
   * leaf and enables controllers, a container gets a memory limit; then systemd reapplies the
   * unit's settings (run here as root) and takes the controllers back: the limit file is gone.
   * systemd 252 does so at a daemon-reload already; 257 keeps an unchanged unit's cgroup across a
   * daemon-reload and reapplies it when one of the unit's settings changes (a set-property).
   */
  private static void cgroupfsReload(ContainerApi api, PrintStream out) throws Exception {
    api.initMachine(
        org.lmctfy.spec.InitSpec.parse(
            "processes_leaf: \"supervisor\" enable_controllers: [memory]"));
    api.create("/job", ContainerSpec.parse("memory { limit: 64M }"));
    CgroupFs fs = api.cgroupFs();
    Hierarchy unified = fs.hierarchies().get(0);
    CgroupPath path = CgroupPath.of("/job").under(api.root());
    out.println("before.memory.max=" + fs.hasFile(unified, path, "memory.max"));
    out.println("reload.status=" + systemctl("daemon-reload"));
    out.println(
        "reload.subtree_control=" + fs.read(unified, api.root(), "cgroup.subtree_control").strip());
    String unit = api.root().name();
    out.println(
        "set-property.status=" + systemctl("set-property", "--runtime", unit, "CPUWeight=50"));
    out.println(
        "after.subtree_control=" + fs.read(unified, api.root(), "cgroup.subtree_control").strip());
    out.println("after.memory.max=" + fs.hasFile(unified, path, "memory.max"));
    api.destroy("/job");
  }

  /**
   * Without lmctfy-systemd: reads work, the first top-level create is refused, and this process's
   * own cgroup (where the reads are rooted) is as it was: no child, no controller, this JVM in it.
   */
  private static void withoutModule(ContainerApi api, PrintStream out) throws Exception {
    CgroupFs fs = api.cgroupFs();
    Hierarchy unified = fs.hierarchies().get(0);
    out.println("list=" + api.get("/").listSubcontainers(ListPolicy.RECURSIVE));
    out.println("exists=" + api.exists("/job"));
    out.println("detect=" + api.detect(ProcessHandle.current().pid()));
    try {
      api.create("/job", LIMITS);
      out.println("create=created");
    } catch (LmctfyException e) {
      out.println("create=" + e.code() + ": " + e.getMessage());
    }
    try {
      api.initMachine(
          org.lmctfy.spec.InitSpec.parse("processes_leaf: \"leaf\" enable_controllers: [memory]"));
      out.println("initMachine=done");
    } catch (LmctfyException e) {
      out.println("initMachine=" + e.code());
    }
    try (var children = Files.list(SYSFS.resolve(api.root().value().substring(1)))) {
      out.println(
          "own.children="
              + children.filter(Files::isDirectory).map(c -> c.getFileName().toString()).toList());
    }
    out.println(
        "own.subtree_control=" + fs.read(unified, api.root(), "cgroup.subtree_control").strip());
    out.println(
        "own.procs.self="
            + fs.read(unified, api.root(), "cgroup.procs")
                .lines()
                .anyMatch(l -> l.strip().equals(Long.toString(ProcessHandle.current().pid()))));
  }

  private static final Path SYSFS = Path.of("/sys/fs/cgroup");

  /** This process's cgroup on cgroup v2, from /proc/self/cgroup. */
  private static String ownCgroup() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      if (line.startsWith("0::")) {
        return line.substring(3);
      }
    }
    return "";
  }

  private static int uid() throws Exception {
    return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
  }

  /** {@code systemctl [--user] list-units --all 'lmctfy*'}: the unit names. */
  private static List<String> units(boolean user) throws Exception {
    return systemctlOutput(user, "list-units", "--all", "--plain", "--no-legend", "lmctfy*")
        .stream()
        .map(l -> l.strip().split("\\s+")[0])
        .filter(u -> !u.isEmpty())
        .toList();
  }

  /** {@code systemctl [--user] args}: its output's lines. */
  private static List<String> systemctlOutput(boolean user, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("systemctl"));
    if (user) {
      command.add("--user");
    }
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return output.lines().toList();
  }

  private static int systemctl(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("systemctl"));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).inheritIO().start().waitFor();
  }

  private static void call(Runnable op) {
    try {
      op.run();
    } catch (LmctfyException e) {
      if (e.code() != ErrorCode.ALREADY_EXISTS && e.code() != ErrorCode.NOT_FOUND) {
        throw e;
      }
    }
  }
}
