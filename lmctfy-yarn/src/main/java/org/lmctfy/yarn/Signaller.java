package org.lmctfy.yarn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.server.nodemanager.ContainerExecutor.Signal;

/**
 * Sends a signal to processes by pid: how {@link LmctfyContainerExecutor} delivers YARN's TERM and
 * QUIT to every process of a container (KILL is the container's {@code killAll}). One seam, so that
 * the executor's tests on the fake see which processes were signalled.
 */
@FunctionalInterface
interface Signaller {
  /**
   * Sends {@code signal} to each of {@code pids}; a pid that has ended meanwhile is no failure.
   *
   * @throws IOException if the signal could not be sent (naming the command and its output)
   */
  void signal(Signal signal, List<Long> pids) throws IOException;

  /** The host's: one {@code kill -<n> pid...} for all of them. */
  Signaller KILL_COMMAND =
      (signal, pids) -> {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal.getValue(), "--"));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status;
        try {
          status = p.waitFor();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while running " + command);
        }
        // kill exits 1 when one of the pids is gone (it ended between the listing and now)
        if (status != 0 && !output.contains("No such process")) {
          throw new IOException(command + " exited " + status + ": " + output.strip());
        }
      };
}
