package org.lmctfy.internal.notify;

import java.io.IOException;
import org.lmctfy.ErrorCode;
import org.lmctfy.Notification;
import org.lmctfy.NotificationListener;
import org.lmctfy.internal.lifecycle.Errors;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.spec.EventSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One registration: its thread waits on the source's watch, re-reads after each wake-up, calls
 * the listener for each event, and, once ended, sends the last notification (none when
 * unregistered). The end is decided once: by the thread (the cgroup went away, a failure), or by
 * another thread through {@link #end} (destroy, close, unregister), which closes the watch.
 */
final class Registration implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Registration.class);

  /** Why a registration ended; {@code kind == null} for unregistered (no last notification). */
  record Ending(Notification.Kind kind, ErrorCode status, String detail) {
    static final Ending UNREGISTERED = new Ending(null, ErrorCode.CANCELLED, "unregistered");
  }

  final long id;
  final ContainerName name;
  private final EventSpec event;
  private final NotificationListener listener;
  private final Source source;
  private final Notifier notifier;
  final Thread thread;
  private Ending ending;
  private IOException closeFailure;

  Registration(long id, ContainerName name, EventSpec event, NotificationListener listener, Source source,
      Notifier notifier) {
    this.id = id;
    this.name = name;
    this.event = event;
    this.listener = listener;
    this.source = source;
    this.notifier = notifier;
    this.thread = new Thread(this, "lmctfy-notify-" + id);
    this.thread.setDaemon(true);
  }

  /**
   * Ends the registration for {@code why} unless it has ended already, and wakes its thread.
   * Unregistering wins over a last notification not yet sent.
   */
  void end(Ending why) {
    synchronized (this) {
      if (ending != null && why != Ending.UNREGISTERED) {
        return;
      }
      ending = why;
    }
    try {
      source.watch.close();
    } catch (IOException e) {
      synchronized (this) {
        closeFailure = e;
      }
    }
  }

  /** The failure to close the watch, if {@link #end} met one. */
  synchronized IOException closeFailure() {
    return closeFailure;
  }

  private synchronized Ending ending() {
    return ending;
  }

  @Override
  public void run() {
    try {
      loop();
    } finally {
      end(new Ending(Notification.Kind.ENDED, ErrorCode.INTERNAL, "the notification thread stopped"));
      Ending last = ending();
      if (last.kind() != null) {
        deliver(last.kind(), last.status(), last.detail());
      }
      notifier.ended(this);
    }
  }

  private void loop() {
    try {
      while (true) {
        if (!source.watch.await()) {
          return;
        }
        if (!source.exists()) {
          end(destroyed());
          return;
        }
        String detail = source.check();
        if (detail != null) {
          deliver(Notification.Kind.EVENT, ErrorCode.OK, detail);
        }
      }
    } catch (IOException e) {
      failed(e);
    } catch (InterruptedException e) {
      end(new Ending(Notification.Kind.ENDED, ErrorCode.CANCELLED, "the notification thread was interrupted"));
    } catch (RuntimeException e) {
      end(new Ending(Notification.Kind.ENDED, ErrorCode.INTERNAL, "notification of " + name + " failed: " + e));
    }
  }

  /** A failure while waiting or reading: the container went away, or the registration cannot go on. */
  private void failed(IOException e) {
    boolean gone;
    try {
      gone = !source.exists();
    } catch (IOException again) {
      e.addSuppressed(again);
      gone = false;
    }
    end(gone ? destroyed()
        : new Ending(Notification.Kind.ENDED, Errors.codeOf(e), "notification of " + name + " failed: " + e.getMessage()));
  }

  static Ending destroyed() {
    return new Ending(Notification.Kind.DESTROYED, ErrorCode.OK, "destroyed");
  }

  private void deliver(Notification.Kind kind, ErrorCode status, String detail) {
    if (ending() == Ending.UNREGISTERED) {
      return;
    }
    try {
      listener.onEvent(new Notification(name.value(), event, kind, status, detail));
    } catch (RuntimeException e) {
      LOG.warn("the listener of notification {} ({} on {}) threw; its notifications go on", id, event.toJson(),
          name, e);
    }
  }
}
