package org.lmctfy.examples.cli;

import static org.lmctfy.examples.cli.Invocation.CALLERS_CONTAINER;

import java.util.List;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.UpdateOption;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.examples.cli.Command.Opt;
import org.lmctfy.examples.cli.Command.Param;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.InitSpec;

/** The commands about containers and their specs: lmctfy's, plus {@code cleanup}. */
final class ContainerCommands {
  private ContainerCommands() {}

  private static final Opt SPEC_FILE = Opt.value("<file>", "Read the spec from this file.", "-c");
  private static final Param NAME = Param.one("<name>", "The container, e.g. /test.");
  private static final Param SPEC = Param.optional("<spec>", "The spec, unless -c is given.");
  private static final Param CALLERS = Param.optional("<name>", "Default: the caller's container.");

  static Command create() {
    return Command.leaf(
        "create",
        List.of(
            "Create a container.",
            "The spec is lmctfy text format or JSON, inline or "
                + "from a file. Example: create /test 'cpu { limit: 1000 } memory { limit: 1000000000 }'. A virtual host "
                + "(virtual_host { ... }) prints its init's pid, as lmctfy did: create /vh 'virtual_host { virtual_hostname: "
                + "\"vh\" } filesystem { rootfs: \"/srv/vh\" }'"),
        in -> {
          ContainerSpec spec = ContainerSpec.parse(in.specText(1, false));
          Container c = in.api().create(in.param(0, null), spec);
          return spec.virtualHost() == null
              ? 0
              : in.print(new Output().add("init_pid", c.initPid()));
        },
        List.of(SPEC_FILE),
        NAME,
        SPEC);
  }

  /**
   * A virtual host's init and bwrap, which waits for it (its parent, in the container): they are
   * the container's own, not processes that make a destroy need -f.
   */
  private static List<Long> virtualHostMachinery(Container c) {
    long init;
    try {
      init = c.initPid(); // 1, the machine's, for a container in no virtual host
    } catch (LmctfyException e) {
      return List.of(); // its init no longer runs
    }
    List<Long> machinery = new java.util.ArrayList<>(List.of(init));
    List<Long> inside = c.listProcesses(ListPolicy.SELF);
    ProcessHandle.of(init)
        .flatMap(ProcessHandle::parent)
        .map(ProcessHandle::pid)
        .filter(inside::contains)
        .ifPresent(machinery::add);
    return machinery;
  }

  static Command destroy() {
    return Command.leaf(
        "destroy",
        List.of(
            "Destroy a container.",
            "Without -f, refuse (FAILED_PRECONDITION) one "
                + "that has subcontainers or processes; with -f, destroy them too."),
        ContainerCommands::destroy,
        List.of(Opt.flag("Destroy subcontainers and kill processes too.", "-f", "--force")),
        NAME);
  }

  private static int destroy(Invocation in) {
    Container c = in.api().get(in.param(0, null));
    if (!in.flag("-f")) {
      List<String> subcontainers = c.listSubcontainers(ListPolicy.SELF);
      List<Long> threads = new java.util.ArrayList<>(c.listThreads(ListPolicy.SELF));
      threads.removeAll(virtualHostMachinery(c));
      if (!subcontainers.isEmpty() || !threads.isEmpty()) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            "container "
                + c.name()
                + " is not empty: "
                + "subcontainers "
                + subcontainers
                + ", threads "
                + threads
                + "; destroy -f destroys them too");
      }
    }
    c.destroy();
    return 0;
  }

  static Command detect() {
    return Command.leaf(
        "detect",
        List.of(
            "Print the container a process is in (default: the parent of lmctfy, " + "the shell)."),
        in -> {
          String pid = in.param(0, null);
          long of = pid == null ? Invocation.parentPid() : in.number(pid, "<pid>");
          return in.print(new Output().add("name", in.api().detect(of)));
        },
        List.of(),
        Param.optional("<pid>", "Default: the parent of lmctfy."));
  }

  static Command init() {
    return Command.leaf(
        "init",
        List.of(
            "Prepare the machine.",
            "Mount the v1 hierarchies and enable the v2 "
                + "controllers the init spec asks for. Example: init 'cgroup_mount { mount_path: \"/sys/fs/cgroup/cpu\" "
                + "hierarchy: CGROUP_CPU }'"),
        in -> {
          in.api().initMachine(InitSpec.parse(in.specText(0, true)));
          return 0;
        },
        List.of(Opt.value("<file>", "Read the init spec from this file.", "-c")),
        Param.optional("<spec>", "The init spec; none or \"\" only checks the cgroups."));
  }

  static Command list() {
    return Command.menu(
        "list",
        List.of("List containers, processes or threads."),
        listing(
            "containers",
            "Print the subcontainers' names (name=...).",
            "name",
            (c, p) -> c.listSubcontainers(p)),
        listing("pids", "Print the processes' ids (pid=...).", "pid", (c, p) -> c.listProcesses(p)),
        listing("tids", "Print the threads' ids (tid=...).", "tid", (c, p) -> c.listThreads(p)));
  }

  /** What one list command lists. */
  private interface Lister {
    List<?> list(Container c, ListPolicy policy);
  }

  private static Command listing(String name, String description, String key, Lister lister) {
    return Command.leaf(
        name,
        List.of(description),
        in -> {
          ListPolicy policy = in.flag("-r") ? ListPolicy.RECURSIVE : ListPolicy.SELF;
          return in.print(
              new Output()
                  .addAll(key, lister.list(in.api().get(in.param(0, CALLERS_CONTAINER)), policy)));
        },
        List.of(Opt.flag("Include everything below the container.", "-r", "--recursive")),
        CALLERS);
  }

  static Command spec() {
    return Command.leaf(
        "spec",
        List.of("Print a container's spec as the kernel has it (text format, or --json)."),
        in -> {
          ContainerSpec spec = in.api().get(in.param(0, CALLERS_CONTAINER)).spec();
          return in.print(new Output().raw(spec.toText(), spec.toJson()));
        },
        List.of(),
        CALLERS);
  }

  static Command stats() {
    return Command.menu(
        "stats",
        List.of("Print a container's stats (text format, or --json)."),
        stats("summary", "CPU, memory, pids, block I/O and pressure.", StatsType.SUMMARY),
        stats("full", "The summary, CPU throttling and memory.stat breakdowns.", StatsType.FULL));
  }

  private static Command stats(String name, String description, StatsType type) {
    return Command.leaf(
        name,
        List.of(description),
        in -> {
          ContainerStats stats = in.api().get(in.param(0, CALLERS_CONTAINER)).stats(type);
          return in.print(new Output().raw(stats.toText(), stats.toJson()));
        },
        List.of(),
        CALLERS);
  }

  static Command update() {
    return Command.menu(
        "update",
        List.of(
            "Change a container's resources.",
            "diff changes the fields given, replace "
                + "resets every other field to its default. A list field (device.rules) is replaced whole."),
        update("diff", "Change only the fields given.", UpdatePolicy.DIFF),
        update("replace", "Set the fields given, reset every other one.", UpdatePolicy.REPLACE));
  }

  private static Command update(String name, String description, UpdatePolicy policy) {
    return Command.leaf(
        name,
        List.of(description),
        in -> {
          in.api()
              .get(in.param(0, null))
              .update(
                  ContainerSpec.parse(in.specText(1, false)),
                  policy,
                  in.flag("--force-memory-limit")
                      ? new UpdateOption[] {UpdateOption.FORCE_MEMORY_LIMIT}
                      : new UpdateOption[0]);
          return 0;
        },
        List.of(
            SPEC_FILE,
            Opt.flag(
                "Lower memory.limit even below what the container uses (v2: the kernel"
                    + " OOM-kills what it cannot reclaim); without it such an update is refused.",
                "--force-memory-limit")),
        NAME,
        SPEC);
  }

  static Command cleanup() {
    return Command.leaf(
        "cleanup",
        List.of(
            "Remove what a failed or interrupted operation left.",
            "Of one container "
                + "(a complete container is left alone), or with no name of every container below the root.",
            "Prints removed=... for each thing removed; fails (FAILED_PRECONDITION) naming what it could not remove."),
        ContainerCommands::cleanup,
        List.of(),
        Param.optional("<name>", "Default: every container."));
  }

  private static int cleanup(Invocation in) {
    String name = in.param(0, null);
    if (name == null) {
      CleanupReport report = in.api().cleanup();
      in.print(new Output().addAll("removed", report.removed()));
      if (!report.failures().isEmpty()) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION, "cleanup left " + report.failures());
      }
      return 0;
    }
    boolean complete;
    try {
      complete = in.api().exists(name);
    } catch (LmctfyException partial) {
      if (partial.code() != ErrorCode.FAILED_PRECONDITION) {
        throw partial;
      }
      complete = false; // a partial container: destroy finishes removing it
    }
    if (complete) {
      return in.print(new Output().addAll("removed", List.of()));
    }
    try {
      in.api().destroy(name); // finishes or undoes an unfinished or partial container
    } catch (LmctfyException absent) {
      if (absent.code() == ErrorCode.NOT_FOUND) {
        return in.print(new Output().addAll("removed", List.of())); // nothing was left
      }
      throw absent;
    }
    return in.print(new Output().addAll("removed", List.of(name)));
  }
}
