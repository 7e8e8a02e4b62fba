package org.lmctfy.yarn;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.lmctfy.Container;
import org.lmctfy.LmctfyException;
import org.lmctfy.Notification;
import org.lmctfy.StatsType;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.EventSpec;

/**
 * Whether the kernel's OOM killer killed in a YARN container's lmctfy container, and the
 * diagnostics that say so: the container's memory stats after the launch script ended, which count
 * every kill since the container was made (where the kernel counts them: v2, v1 since Linux 4.13),
 * and lmctfy's OOM notification, registered just after the script started (it may still be on its
 * way when the script ends).
 */
final class OomReport {
  private final Container container;
  private final long registration;
  private final AtomicReference<@Nullable String> notified;

  private OomReport(
      Container container, long registration, AtomicReference<@Nullable String> notified) {
    this.container = container;
    this.registration = registration;
    this.notified = notified;
  }

  /**
   * Listens for OOMs in {@code container}.
   *
   * @throws LmctfyException if the notification cannot be registered
   */
  static OomReport listen(Container container) {
    AtomicReference<@Nullable String> notified = new AtomicReference<>();
    long id =
        container.registerNotification(
            EventSpec.oom(),
            n -> {
              if (n.kind() == Notification.Kind.EVENT) {
                notified.compareAndSet(null, n.detail());
              }
            });
    return new OomReport(container, id, notified);
  }

  /**
   * The diagnostics if an OOM kill happened in the container, from the stats (read now) and the
   * notification; empty if none did. Ends the registration.
   *
   * @param what the YARN container, for the message
   * @param allocationMb its memory allocation
   * @throws LmctfyException if the stats cannot be read
   */
  Optional<String> afterExit(String what, long allocationMb) {
    container.unregisterNotification(registration);
    return of(container, what, allocationMb, notified.get());
  }

  /**
   * The diagnostics if the container's stats show an OOM kill (for a container whose launch this
   * NodeManager did not see, such as one it reacquired after a restart).
   */
  static Optional<String> of(
      Container container, String what, long allocationMb, @Nullable String notified) {
    ContainerStats.MemoryStats memory = container.stats(StatsType.SUMMARY).memory();
    long kills = memory == null || memory.oomKills() == null ? 0 : memory.oomKills();
    if (kills == 0 && notified == null) {
      return Optional.empty();
    }
    StringBuilder message =
        new StringBuilder("Container ")
            .append(what)
            .append(" was killed by the kernel's OOM killer (lmctfy container ")
            .append(container.name())
            .append("): ")
            .append(kills)
            .append(kills == 1 ? " process" : " processes")
            .append(" OOM-killed at its memory limit of ");
    if (memory != null && memory.limit() != null) {
      message.append(memory.limit()).append(" bytes, ");
    }
    message.append("the allocation of ").append(allocationMb).append(" MB");
    if (memory != null && memory.maxUsage() != null) {
      message.append("; peak usage ").append(memory.maxUsage()).append(" bytes");
    }
    if (notified != null) {
      // its detail is what the files said as it fired, which may be before the kill was counted
      message.append("; lmctfy's OOM notification fired");
    }
    return Optional.of(message.append('.').toString());
  }
}
