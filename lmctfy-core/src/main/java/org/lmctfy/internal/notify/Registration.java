package org.lmctfy.internal.notify;

import java.io.IOException;
import org.lmctfy.ErrorCode;
import org.lmctfy.Notification;
import org.lmctfy.NotificationListener;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.spec.EventSpec;

/**
 * One registration's state, guarded by its {@link Notifier}'s monitor: how it ended (decided once:
 * by the watch thread when the cgroup went away or a read failed, or by another thread through
 * destroy, close or unregister) and whether it is done (its last notification delivered, or
 * unregistered), after which the delivery thread skips whatever of it is still queued.
 */
final class Registration {
  /** Why a registration ended; {@code kind == null} for unregistered (no last notification). */
  record Ending(Notification.Kind kind, ErrorCode status, String detail) {
    static final Ending UNREGISTERED = new Ending(null, ErrorCode.CANCELLED, "unregistered");
  }

  final long id;
  final ContainerName name;
  final EventSpec event;
  final NotificationListener listener;
  final Source source;
  final Notifier.Engine engine;
  Ending ending;
  boolean done;
  IOException closeFailure;

  Registration(
      long id,
      ContainerName name,
      EventSpec event,
      NotificationListener listener,
      Source source,
      Notifier.Engine engine) {
    this.id = id;
    this.name = name;
    this.event = event;
    this.listener = listener;
    this.source = source;
    this.engine = engine;
  }

  static Ending destroyed() {
    return new Ending(Notification.Kind.DESTROYED, ErrorCode.OK, "destroyed");
  }

  Notification notification(Notification.Kind kind, ErrorCode status, String detail) {
    return new Notification(name.value(), event, kind, status, detail);
  }
}
