package org.lmctfy;

import java.util.Objects;
import org.lmctfy.spec.EventSpec;

/**
 * One call of a {@link NotificationListener}: the registered event happened, or the registration
 * ended. Every registration ends with exactly one last notification ({@link #last()}), unless it
 * was unregistered: {@link Kind#DESTROYED} when its container (or an ancestor) was destroyed, or
 * {@link Kind#ENDED} when the {@link ContainerApi} was closed (status CANCELLED) or the kernel side
 * failed (the failure's code, and the message in {@code detail}).
 *
 * <pre>{@code
 * job.registerNotification(EventSpec.oom(), n -> {
 *   if (n.kind() == Notification.Kind.EVENT) {
 *     log.warn("{} ran out of memory: {}", n.containerName(), n.detail());
 *   }
 * });
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param containerName the container's absolute name, {@code "/job"}
 * @param event the event spec the registration was made with
 * @param kind what happened
 * @param status OK for EVENT and DESTROYED; for ENDED, why the registration ended
 * @param detail what the kernel showed, for people: {@code "oom 1, oom_kill 1"}, {@code "usage
 *     10485760 bytes, above 8388608"}, {@code "populated 0"}, the PSI line, or the failure; never
 *     null
 * @since 0.1
 */
public record Notification(
    String containerName, EventSpec event, Kind kind, ErrorCode status, String detail) {

  /** What a notification reports. */
  public enum Kind {
    /** The registered event happened (for {@code container_destroyed}, see DESTROYED). */
    EVENT,
    /** The container was destroyed; the registration's last notification. */
    DESTROYED,
    /** The registration ended without the container being destroyed; its last notification. */
    ENDED
  }

  /** Checks that nothing is null. */
  public Notification {
    Objects.requireNonNull(containerName, "containerName");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(detail, "detail");
  }

  /** Whether this is the registration's last notification. */
  public boolean last() {
    return kind != Kind.EVENT;
  }
}
