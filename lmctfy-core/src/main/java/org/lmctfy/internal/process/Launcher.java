package org.lmctfy.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The host's way to start a process inside cgroups: {@code /bin/sh -c SCRIPT lmctfy-launch
 * <status file> <cgroup.procs>... -- <argv>...}. The script writes its own pid ({@code $$}) into
 * every {@code cgroup.procs}, then {@code exec}s the argv, so the program's first instruction runs
 * inside. A failed write appends the shell's message and the file to the status file (a shell
 * cannot see the errno) and exits 125.
 *
 * <p>{@link #start} returns once {@code /proc/<pid>/cgroup} shows the launcher in every cgroup
 * (it then has nothing left to do but exec), or once it has ended: with a status file still empty
 * the program ran and ended; otherwise the start failed and no process is left.
 */
public final class Launcher {
  /** The launcher's exit status when it could not place itself. */
  public static final int PLACEMENT_FAILED = 125;

  static final String SCRIPT = String.join("\n",
      "status=$1; shift",
      "while [ \"$1\" != -- ]; do",
      "  if ! echo $$ 2>>\"$status\" >\"$1\"; then printf '%s\\n' \"$1\" >>\"$status\"; exit 125; fi",
      "  shift",
      "done",
      "shift",
      "exec \"$@\"",
      "");

  private static final Duration PLACEMENT_DEADLINE = Duration.ofSeconds(10);

  private Launcher() {}

  /** See {@link CgroupFs#start}. */
  public static Process start(CgroupFs fs, ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups)
      throws IOException {
    RunCommand.check(command);
    Path status = Files.createTempFile("lmctfy-launch-", ".status");
    try {
      List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", SCRIPT, "lmctfy-launch", status.toString()));
      cgroups.forEach((h, p) -> argv.add(h.display(p, "cgroup.procs")));
      argv.add("--");
      argv.addAll(command.command());
      ProcessBuilder launcher = new ProcessBuilder(argv)
          .directory(command.directory())
          .redirectInput(command.redirectInput())
          .redirectOutput(command.redirectOutput())
          .redirectError(command.redirectError())
          .redirectErrorStream(command.redirectErrorStream());
      launcher.environment().clear();
      launcher.environment().putAll(command.environment());
      Process p = launcher.start();
      awaitPlacement(fs, p, cgroups, status);
      return p;
    } finally {
      Files.deleteIfExists(status);
    }
  }

  private static void awaitPlacement(CgroupFs fs, Process p, Map<Hierarchy, CgroupPath> cgroups, Path status)
      throws IOException {
    long end = System.nanoTime() + PLACEMENT_DEADLINE.toNanos();
    while (true) {
      if (!p.isAlive()) {
        String failure = Files.readString(status, StandardCharsets.UTF_8).strip();
        if (!failure.isEmpty()) {
          throw new IOException("the launcher (pid " + p.pid() + ") could not place itself, exit status "
              + p.exitValue() + ": " + failure.replace('\n', ' '));
        }
        return; // placed, exec'd, and already ended
      }
      if (placed(fs, p.pid(), cgroups) && p.isAlive()) {
        return; // alive after the read: the pid was still ours when /proc showed it placed
      }
      if (System.nanoTime() > end) {
        p.destroyForcibly();
        waitQuietly(p);
        throw new IOException("the launcher (pid " + p.pid() + ") was not in " + cgroups.values().iterator().next()
            + " in every hierarchy within " + PLACEMENT_DEADLINE.toMillis() + " ms; killed it");
      }
      sleep(p);
    }
  }

  private static boolean placed(CgroupFs fs, long pid, Map<Hierarchy, CgroupPath> cgroups) throws IOException {
    Map<Hierarchy, CgroupPath> now;
    try {
      now = fs.cgroupsOf(pid);
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ESRCH) {
        return false; // ended between the checks: the next round sees it
      }
      throw e;
    }
    for (Map.Entry<Hierarchy, CgroupPath> e : cgroups.entrySet()) {
      if (!e.getValue().equals(now.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  private static void sleep(Process p) throws IOException {
    try {
      Thread.sleep(1);
    } catch (InterruptedException e) {
      p.destroyForcibly();
      waitQuietly(p);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting a process; killed the launcher (pid " + p.pid() + ")", e);
    }
  }

  /** Reaps a killed launcher so that no process outlives a failed start. */
  private static void waitQuietly(Process p) {
    boolean interrupted = false;
    while (true) {
      try {
        p.waitFor();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // keep waiting: the kill is already sent, this ends at once
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
