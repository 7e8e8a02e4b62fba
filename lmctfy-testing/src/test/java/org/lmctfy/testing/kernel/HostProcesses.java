package org.lmctfy.testing.kernel;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Real processes ({@code sleep}) that the kernel contract cases move between scratch cgroups. */
final class HostProcesses {
  private final Map<Long, Process> running = new ConcurrentHashMap<>();

  long start() throws IOException {
    Process p = new ProcessBuilder("sleep", "3600").redirectErrorStream(true).start();
    running.put(p.pid(), p);
    return p.pid();
  }

  void stop(long pid) throws IOException {
    Process p = running.remove(pid);
    if (p == null) {
      throw new IllegalStateException("not started here: " + pid);
    }
    p.destroyForcibly();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        throw new IOException("process " + pid + " did not die within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
