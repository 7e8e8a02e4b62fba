package org.lmctfy.examples.cli;

import java.nio.file.Path;
import java.util.List;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.InitSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands about containers and their specs: lmctfy's, plus {@code cleanup}. */
final class ContainerCommands {
  private ContainerCommands() {}

  @Command(name = "create", description = {"Create a container.", "The spec is lmctfy text format or JSON, inline or from a file. Example: create /test 'cpu { limit: 1000 } memory { limit: 1000000000 }'"})
  static final class Create extends Cmd {
    @Option(names = "-c", paramLabel = "<file>", description = "Read the spec from this file.")
    Path config;

    @Parameters(index = "0", paramLabel = "<name>", description = "The container, e.g. /test.")
    String name;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<spec>", description = "The spec, unless -c is given.")
    String spec;

    @Override
    public Integer call() {
      api().create(name, ContainerSpec.parse(specText(config, spec, false)));
      return 0;
    }
  }

  @Command(name = "destroy", description = {"Destroy a container.", "Without -f, refuse (FAILED_PRECONDITION) one that has subcontainers or processes; with -f, destroy them too."})
  static final class Destroy extends Cmd {
    @Option(names = {"-f", "--force"}, description = "Destroy subcontainers and kill processes too.")
    boolean force;

    @Parameters(paramLabel = "<name>")
    String name;

    @Override
    public Integer call() {
      Container c = api().get(name);
      if (!force) {
        List<String> subcontainers = c.listSubcontainers(ListPolicy.SELF);
        List<Long> threads = c.listThreads(ListPolicy.SELF);
        if (!subcontainers.isEmpty() || !threads.isEmpty()) {
          throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, "container " + c.name() + " is not empty: "
              + "subcontainers " + subcontainers + ", threads " + threads + "; destroy -f destroys them too");
        }
      }
      c.destroy();
      return 0;
    }
  }

  @Command(name = "detect", description = "Print the container a process is in (default: the parent of lmctfy, the shell).")
  static final class Detect extends Cmd {
    @Parameters(arity = "0..1", paramLabel = "<pid>")
    Long pid;

    @Override
    public Integer call() {
      return print(new Output().add("name", api().detect(pid == null ? parentPid() : pid)));
    }
  }

  @Command(name = "init", description = {"Prepare the machine.", "Mount the v1 hierarchies and enable the v2 controllers the init spec asks for. Example: init 'cgroup_mount { mount_path: \"/sys/fs/cgroup/cpu\" hierarchy: CGROUP_CPU }'"})
  static final class Init extends Cmd {
    @Option(names = "-c", paramLabel = "<file>", description = "Read the init spec from this file.")
    Path config;

    @Parameters(arity = "0..1", paramLabel = "<spec>", description = "The init spec; none or \"\" only checks the cgroups.")
    String spec;

    @Override
    public Integer call() {
      api().initMachine(InitSpec.parse(specText(config, spec, true)));
      return 0;
    }
  }

  @Command(name = "list", description = "List containers, processes or threads.",
      subcommands = {ListContainers.class, ListPids.class, ListTids.class})
  static final class ListMenu {}

  /** The options of the three list commands. */
  abstract static class ListCmd extends Cmd {
    @Option(names = {"-r", "--recursive"}, description = "Include everything below the container.")
    boolean recursive;

    @Parameters(arity = "0..1", paramLabel = "<name>", description = "Default: the caller's container.")
    String name = CALLERS_CONTAINER;

    ListPolicy policy() {
      return recursive ? ListPolicy.RECURSIVE : ListPolicy.SELF;
    }
  }

  @Command(name = "containers", description = "Print the subcontainers' names (name=...).")
  static final class ListContainers extends ListCmd {
    @Override
    public Integer call() {
      return print(new Output().addAll("name", api().get(name).listSubcontainers(policy())));
    }
  }

  @Command(name = "pids", description = "Print the processes' ids (pid=...).")
  static final class ListPids extends ListCmd {
    @Override
    public Integer call() {
      return print(new Output().addAll("pid", api().get(name).listProcesses(policy())));
    }
  }

  @Command(name = "tids", description = "Print the threads' ids (tid=...).")
  static final class ListTids extends ListCmd {
    @Override
    public Integer call() {
      return print(new Output().addAll("tid", api().get(name).listThreads(policy())));
    }
  }

  @Command(name = "spec", description = "Print a container's spec as the kernel has it (text format, or --json).")
  static final class SpecCommand extends Cmd {
    @Parameters(arity = "0..1", paramLabel = "<name>", description = "Default: the caller's container.")
    String name = CALLERS_CONTAINER;

    @Override
    public Integer call() {
      ContainerSpec spec = api().get(name).spec();
      return print(new Output().raw(spec.toText(), spec.toJson()));
    }
  }

  @Command(name = "stats", description = "Print a container's stats (text format, or --json).",
      subcommands = {StatsSummary.class, StatsFull.class})
  static final class Stats {}

  /** Both stats commands. */
  abstract static class StatsCmd extends Cmd {
    @Parameters(arity = "0..1", paramLabel = "<name>", description = "Default: the caller's container.")
    String name = CALLERS_CONTAINER;

    int print(StatsType type) {
      ContainerStats stats = api().get(name).stats(type);
      return print(new Output().raw(stats.toText(), stats.toJson()));
    }
  }

  @Command(name = "summary", description = "CPU, memory, pids, block I/O and pressure.")
  static final class StatsSummary extends StatsCmd {
    @Override
    public Integer call() {
      return print(StatsType.SUMMARY);
    }
  }

  @Command(name = "full", description = "The summary, CPU throttling and memory.stat breakdowns.")
  static final class StatsFull extends StatsCmd {
    @Override
    public Integer call() {
      return print(StatsType.FULL);
    }
  }

  @Command(name = "update", description = {"Change a container's resources.", "diff changes the fields given, replace resets every other field to its default. A list field (device.rules) is replaced whole."},
      subcommands = {UpdateDiff.class, UpdateReplace.class})
  static final class Update {}

  /** Both update commands. */
  abstract static class UpdateCmd extends Cmd {
    @Option(names = "-c", paramLabel = "<file>", description = "Read the spec from this file.")
    Path config;

    @Parameters(index = "0", paramLabel = "<name>")
    String name;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<spec>", description = "The spec, unless -c is given.")
    String spec;

    int update(UpdatePolicy policy) {
      api().get(name).update(ContainerSpec.parse(specText(config, spec, false)), policy);
      return 0;
    }
  }

  @Command(name = "diff", description = "Change only the fields given.")
  static final class UpdateDiff extends UpdateCmd {
    @Override
    public Integer call() {
      return update(UpdatePolicy.DIFF);
    }
  }

  @Command(name = "replace", description = "Set the fields given, reset every other one.")
  static final class UpdateReplace extends UpdateCmd {
    @Override
    public Integer call() {
      return update(UpdatePolicy.REPLACE);
    }
  }

  @Command(name = "cleanup", description = {"Remove what a failed or interrupted operation left.", "Of one container (a complete container is left alone), or with no name of every container below the root.",
      "Prints removed=... for each thing removed; fails (FAILED_PRECONDITION) naming what it could not remove."})
  static final class Cleanup extends Cmd {
    @Parameters(arity = "0..1", paramLabel = "<name>")
    String name;

    @Override
    public Integer call() {
      if (name == null) {
        CleanupReport report = api().cleanup();
        print(new Output().addAll("removed", report.removed()));
        if (!report.failures().isEmpty()) {
          throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, "cleanup left " + report.failures());
        }
        return 0;
      }
      boolean complete;
      try {
        complete = api().exists(name);
      } catch (LmctfyException partial) {
        if (partial.code() != ErrorCode.FAILED_PRECONDITION) {
          throw partial;
        }
        complete = false; // a partial container: destroy finishes removing it
      }
      if (complete) {
        return print(new Output().addAll("removed", List.of()));
      }
      try {
        api().destroy(name); // finishes or undoes an unfinished or partial container
      } catch (LmctfyException absent) {
        if (absent.code() == ErrorCode.NOT_FOUND) {
          return print(new Output().addAll("removed", List.of())); // nothing was left
        }
        throw absent;
      }
      return print(new Output().addAll("removed", List.of(name)));
    }
  }
}
