package org.lmctfy.internal.notify;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.Notification;
import org.lmctfy.NotificationListener;
import org.lmctfy.internal.lifecycle.Layout;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.spec.EventSpec;

/**
 * The notification registrations of one ContainerApi: ids from 1, a thread per registration,
 * the "destroyed" end when the lifecycle destroys a container or one of its ancestors, and the
 * end of everything on {@link #close()}.
 */
public final class Notifier {
  private final Map<Long, Registration> live = new ConcurrentHashMap<>();
  private long lastId;
  private boolean closed;

  /** Starts a registration; the source is opened (and the container checked) before the id exists. */
  public long register(Layout layout, ContainerName name, EventSpec event, NotificationListener listener) {
    Source source = Source.open(layout, name, event);
    Registration r;
    synchronized (this) {
      if (closed) {
        LmctfyException e = new LmctfyException(ErrorCode.FAILED_PRECONDITION,
            "cannot register a notification on " + name + ": the ContainerApi is closed");
        closeAfterFailure(source, e);
        throw e;
      }
      r = new Registration(++lastId, name, event, listener, source, this);
      live.put(r.id, r);
    }
    r.thread.start();
    return r.id;
  }

  private static void closeAfterFailure(Source source, LmctfyException e) {
    try {
      source.watch.close();
    } catch (IOException closing) {
      e.addSuppressed(closing);
    }
  }

  /**
   * Ends registration {@code id} of {@code name} with no last notification and waits until its
   * listener is not running (unless called from that listener). Ids this API issued that have
   * ended already are ignored.
   */
  public void unregister(ContainerName name, long id) {
    Registration r = live.get(id);
    if (r == null || !r.name.equals(name)) {
      synchronized (this) {
        if (r == null && id > 0 && id <= lastId) {
          return;
        }
      }
      throw new LmctfyException(ErrorCode.NOT_FOUND, "no notification registration " + id + " on " + name);
    }
    r.end(Registration.Ending.UNREGISTERED);
    join(r);
    IOException failure = r.closeFailure();
    if (failure != null) {
      throw new LmctfyException(ErrorCode.INTERNAL, "unregister notification " + id + " on " + name
          + ": closing its kernel watch failed: " + failure.getMessage(), failure);
    }
  }

  /**
   * The lifecycle destroyed {@code name}: every registration of it and of its subcontainers ends
   * with DESTROYED, after any event already being delivered. Does not wait for the listeners.
   */
  public void destroyed(ContainerName name) {
    for (Registration r : live.values()) {
      if (r.name.equals(name) || r.name.value().startsWith(name.isRoot() ? "/" : name.value() + "/")) {
        r.end(Registration.destroyed());
      }
    }
  }

  /** Ends every registration with ENDED (CANCELLED) and waits for their threads. */
  public void close() {
    synchronized (this) {
      closed = true;
    }
    List<Registration> all = new ArrayList<>(live.values());
    for (Registration r : all) {
      r.end(new Registration.Ending(Notification.Kind.ENDED, ErrorCode.CANCELLED, "the ContainerApi was closed"));
    }
    LmctfyException failure = null;
    for (Registration r : all) {
      join(r);
      IOException e = r.closeFailure();
      if (e != null) {
        if (failure == null) {
          failure = new LmctfyException(ErrorCode.INTERNAL, "close: ending notification registrations failed: "
              + e.getMessage(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  void ended(Registration r) {
    live.remove(r.id, r);
  }

  private static void join(Registration r) {
    if (Thread.currentThread() == r.thread) {
      return;
    }
    boolean interrupted = false;
    while (true) {
      try {
        r.thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
