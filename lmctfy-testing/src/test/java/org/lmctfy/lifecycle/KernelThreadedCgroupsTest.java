package org.lmctfy.lifecycle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * Threaded cgroups on a pure v2 kernel (the {@code v2} guests of .ci/kernel-vm), with a real
 * two-thread process (python3, which the host's root the guests run has).
 */
@Tag("kernel")
@Tag("needs-v2")
class KernelThreadedCgroupsTest extends ThreadedCgroupsContract {
  private final Map<Long, Process> started = new HashMap<>();

  KernelThreadedCgroupsTest() {
    super(ContractBackend.host());
  }

  @Override
  long[] startThreadedProcess() throws IOException {
    Process p =
        new ProcessBuilder(
                "python3",
                "-c",
                "import threading, time\n"
                    + "threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()\n"
                    + "print('ready', flush=True)\ntime.sleep(3600)\n")
            .redirectErrorStream(true)
            .start();
    started.put(p.pid(), p);
    String line =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    if (!"ready".equals(line)) {
      throw new IOException("python3 did not start its thread: " + line);
    }
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + p.pid() + "/task"))) {
      long tid =
          tasks
              .map(t -> Long.parseLong(t.getFileName().toString()))
              .filter(t -> t != p.pid())
              .findFirst()
              .orElseThrow(() -> new IOException("python3 " + p.pid() + " has one thread"));
      return new long[] {p.pid(), tid};
    }
  }

  @Override
  boolean gone(long pid) throws IOException {
    try {
      return started.get(pid).waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  @Override
  void stop(long pid) {
    Process p = started.remove(pid);
    if (p != null && p.isAlive()) {
      p.destroyForcibly();
    }
  }
}
