package org.lmctfy.examples;

import java.io.PrintStream;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.spec.EventSpec;

/**
 * Prints a line whenever a container runs out of memory or its usage crosses a threshold, until
 * stopped: {@code java -cp examples/target/lmctfy.jar org.lmctfy.examples.OomListener /job
 * 104857600} (as root). Notifications are being built: until they land, registering fails with
 * UNIMPLEMENTED, which this program reports and exits with (12).
 */
public final class OomListener {
  private OomListener() {}

  public static void main(String[] args) throws InterruptedException {
    try (ContainerApi api = ContainerApi.open()) {
      Container job = api.get(args[0]);
      listen(job, Long.parseLong(args[1]), System.out);
      Thread.currentThread().join(); // events arrive on the library's thread until the JVM is stopped
    }
  }

  /** Registers for OOM and for usage above {@code thresholdBytes}; returns the two registration ids. */
  public static long[] listen(Container job, long thresholdBytes, PrintStream out) {
    long oom = job.registerNotification(EventSpec.oom(),
        (name, event, status) -> out.println(name + ": out of memory" + statusSuffix(status)));
    try {
      long threshold = job.registerNotification(EventSpec.memoryThreshold(thresholdBytes),
          (name, event, status) -> out.println(name + ": memory above " + thresholdBytes + " bytes" + statusSuffix(status)));
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

  private static String statusSuffix(ErrorCode status) {
    return status == ErrorCode.OK ? "" : " (registration ended: " + status + ")";
  }
}
