package org.lmctfy.examples;

import java.io.PrintStream;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.spec.EventSpec;

/**
 * Prints a line whenever a container runs out of memory or its usage crosses a threshold, until
 * stopped: {@code java -cp examples/target/lmctfy.jar org.lmctfy.examples.OomListener /job
 * 104857600} (as root).
 */
public final class OomListener {
  private OomListener() {}

  public static void main(String[] args) {
    ExampleMain.run(
        "OomListener <container> <threshold bytes>   (as root)",
        2,
        args,
        () -> {
          try (ContainerApi api = ContainerApi.open()) {
            Container job = api.get(args[0]);
            listen(job, Long.parseLong(args[1]), System.out);
            Thread.currentThread()
                .join(); // events arrive on the library's thread until the JVM is stopped
            return 0;
          }
        });
  }

  /**
   * Registers for OOM and for usage above {@code thresholdBytes}; returns the two registration ids.
   */
  public static long[] listen(Container job, long thresholdBytes, PrintStream out) {
    long oom =
        job.registerNotification(
            EventSpec.oom(),
            n ->
                out.println(
                    n.containerName() + (n.last() ? ": " + n.detail() : ": out of memory")));
    try {
      long threshold =
          job.registerNotification(
              EventSpec.memoryThreshold(thresholdBytes),
              n ->
                  out.println(
                      n.containerName()
                          + (n.last()
                              ? ": " + n.detail()
                              : ": memory usage crossed " + thresholdBytes + " bytes")));
      return new long[] {oom, threshold};
    } catch (RuntimeException e) {
      try {
        job.unregisterNotification(oom); // do not leave half the registrations behind
      } catch (RuntimeException undo) {
        e.addSuppressed(undo);
      }
      throw e;
    }
  }
}
