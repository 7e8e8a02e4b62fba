package org.lmctfy.internal.notify;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.Notification;
import org.lmctfy.NotificationListener;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupWatch;
import org.lmctfy.cgroupfs.CgroupWatcher;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.jfr.Flight;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.spec.EventSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The notification registrations of one ContainerApi: ids from 1, and while any registration lives,
 * one {@link Engine}: one {@link CgroupWatcher} holding every registration's watch, a watch thread
 * that waits on it and re-reads the files of the registrations that signalled, and a delivery
 * thread that calls the listeners, one notification at a time, in the order they were found. The
 * engine stops (both threads end, the watcher is closed) when its last registration is done, and a
 * later registration starts a new one. Every field is guarded by this object's monitor; no lock is
 * held while a listener runs or while the watch thread reads files.
 */
public final class Notifier {
  /** The names of the two threads of an engine. */
  public static final String WATCH_THREAD = "lmctfy-notify-watch";

  public static final String DELIVERY_THREAD = "lmctfy-notify-deliver";
  private static final Logger LOG = LoggerFactory.getLogger(Notifier.class);
  private static final Duration IDLE_WAIT = Duration.ofMinutes(1);

  private final Flight flight;
  private final Map<Long, Registration> live = new HashMap<>();

  /** The live registrations by container name, sorted: a destroy ends a subtree's at once. */
  private final TreeMap<String, List<Registration>> byName = new TreeMap<>();

  /**
   * Engines whose threads may still be alive (a stopping one may outlive its successor's start):
   * pruned only once both threads have terminated, so close() joins every thread still alive.
   */
  private final List<Engine> engines = new ArrayList<>();

  private Engine engine;
  private long lastId;
  private boolean closed;

  /**
   * @param flight told of each event found (on the watch thread, no lock held), for JDK Flight
   *     Recorder
   */
  public Notifier(Flight flight) {
    this.flight = flight;
  }

  /** One notification or last notification to deliver. */
  private record Item(
      Registration r, Notification.Kind kind, ErrorCode status, String detail, boolean last) {}

  /** A watcher and its two threads, for the registrations made while it ran. */
  final class Engine {
    final CgroupWatcher watcher;
    final Thread watchThread;
    final Thread deliveryThread;
    final Map<CgroupWatch, Registration> byWatch = new IdentityHashMap<>();
    final ArrayDeque<Item> queue = new ArrayDeque<>();
    Registration delivering;
    int registrations;
    boolean stopping;

    Engine(CgroupWatcher watcher) {
      this.watcher = watcher;
      this.watchThread = new Thread(() -> watchLoop(this), WATCH_THREAD);
      this.deliveryThread = new Thread(() -> deliveryLoop(this), DELIVERY_THREAD);
      watchThread.setDaemon(true);
      deliveryThread.setDaemon(true);
    }

    boolean terminated() {
      return !watchThread.isAlive() && !deliveryThread.isAlive();
    }
  }

  /**
   * Starts a registration; the source is opened (and the container checked) before the id exists.
   */
  public synchronized long register(
      ContainerCgroups cgroups,
      ContainerName name,
      EventSpec event,
      NotificationListener listener) {
    if (closed) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "cannot register a notification on " + name + ": the ContainerApi is closed");
    }
    Engine e = engine;
    boolean fresh = e == null;
    if (fresh) {
      e = new Engine(openWatcher(cgroups.fs(), name, event));
    }
    // opened under this monitor: the watch thread cannot see the watch signal before its
    // registration
    Source source;
    try {
      source = Source.open(cgroups, name, event, e.watcher);
    } catch (LmctfyException failure) {
      if (fresh) {
        try {
          e.watcher.close();
        } catch (IOException closing) {
          failure.addSuppressed(closing);
        }
      }
      throw failure;
    }
    Registration r = new Registration(++lastId, name, event, listener, source, e);
    live.put(r.id, r);
    byName.computeIfAbsent(name.value(), k -> new ArrayList<>(1)).add(r);
    e.byWatch.put(source.watch, r);
    e.registrations++;
    if (fresh) {
      engine = e;
      engines.removeIf(Engine::terminated);
      engines.add(e);
      e.watchThread.start();
      e.deliveryThread.start();
    }
    return r.id;
  }

  private static CgroupWatcher openWatcher(CgroupFs fs, ContainerName name, EventSpec event) {
    try {
      return fs.watcher();
    } catch (IOException e) {
      throw Errors.of("register " + event.toJson() + " on " + name + ": open a watcher", e);
    }
  }

  /**
   * Ends registration {@code id} of {@code name} with no last notification and waits until its
   * listener is not running (unless called from the delivery thread, where it is not running or is
   * the caller). Ids this API issued that have ended already are ignored.
   */
  public synchronized void unregister(ContainerName name, long id) {
    Registration r = live.get(id);
    if (r == null || !r.name.equals(name)) {
      if (r == null && id > 0 && id <= lastId) {
        return;
      }
      throw new LmctfyException(
          ErrorCode.NOT_FOUND, "no notification registration " + id + " on " + name);
    }
    end(r, Registration.Ending.UNREGISTERED);
    Engine e = r.engine;
    boolean interrupted = false;
    while (e.delivering == r && Thread.currentThread() != e.deliveryThread) {
      try {
        wait();
      } catch (InterruptedException ex) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (r.closeFailure != null) {
      throw new LmctfyException(
          ErrorCode.INTERNAL,
          "unregister notification "
              + id
              + " on "
              + name
              + ": closing its kernel watch failed: "
              + r.closeFailure.getMessage(),
          r.closeFailure);
    }
  }

  /**
   * The lifecycle destroyed {@code name}: every registration of it and of its subcontainers ends
   * with DESTROYED, after any event already queued or being delivered. Does not wait for the
   * listeners.
   */
  public synchronized void destroyed(ContainerName name) {
    if (byName.isEmpty()) { // the common case: nobody watches, nothing to build
      return;
    }
    List<Registration> subtree = new ArrayList<>();
    if (name.isRoot()) {
      byName.values().forEach(subtree::addAll);
    } else {
      List<Registration> own = byName.get(name.value());
      if (own != null) {
        subtree.addAll(own);
      }
      // "/job/" up to "/job0" ('0' follows '/'): exactly the names below /job
      byName.subMap(name.value() + "/", name.value() + "0").values().forEach(subtree::addAll);
    }
    for (Registration r : subtree) {
      end(r, Registration.destroyed());
    }
  }

  /**
   * Ends every registration with ENDED (CANCELLED) and waits until their last notifications are
   * delivered and the threads have ended (except those of the engine whose thread calls this).
   */
  public void close() {
    List<Registration> all;
    List<Thread> threads = new ArrayList<>();
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(live.values());
      for (Registration r : all) {
        end(
            r,
            new Registration.Ending(
                Notification.Kind.ENDED, ErrorCode.CANCELLED, "the ContainerApi was closed"));
      }
      Thread self = Thread.currentThread();
      for (Engine e : engines) {
        if (self != e.watchThread && self != e.deliveryThread) { // it cannot wait for itself
          threads.add(e.watchThread);
          threads.add(e.deliveryThread);
        }
      }
    }
    boolean interrupted = false;
    for (Thread t : threads) {
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    LmctfyException failure = null;
    for (Registration r : all) {
      IOException e;
      synchronized (this) {
        e = r.closeFailure;
      }
      if (e != null) {
        if (failure == null) {
          failure =
              new LmctfyException(
                  ErrorCode.INTERNAL,
                  "close: ending notification registrations failed: " + e.getMessage(),
                  e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  // ---- ending, called with the monitor held

  /**
   * Ends {@code r} for {@code why} unless it has ended already, closing its watch; queues its last
   * notification, or, when unregistered, makes it done at once (unregistering wins over a last
   * notification not yet delivered).
   */
  private void end(Registration r, Registration.Ending why) {
    if (r.done) {
      return;
    }
    boolean first = r.ending == null;
    if (first) {
      r.ending = why;
      try {
        r.source.watch.close();
      } catch (IOException e) {
        r.closeFailure = e;
      }
    }
    if (why == Registration.Ending.UNREGISTERED) {
      done(r);
    } else if (first) {
      r.engine.queue.add(new Item(r, why.kind(), why.status(), why.detail(), true));
      notifyAll();
    }
  }

  /** {@code r} will never be called again: forgotten, and its engine stopped if it was the last. */
  private void done(Registration r) {
    r.done = true;
    live.remove(r.id);
    List<Registration> named = byName.get(r.name.value());
    if (named != null && named.remove(r) && named.isEmpty()) {
      byName.remove(r.name.value());
    }
    Engine e = r.engine;
    e.byWatch.remove(r.source.watch);
    if (--e.registrations == 0) {
      e.stopping = true;
      if (engine == e) {
        engine = null;
      }
      e.watcher.wakeup();
    }
    notifyAll();
  }

  // ---- the watch thread

  private void watchLoop(Engine e) {
    Registration.Ending failure = null;
    try {
      List<Registration> signalled = new ArrayList<>();
      while (true) {
        List<CgroupWatch> fired = e.watcher.await(IDLE_WAIT);
        synchronized (this) {
          if (e.stopping) {
            break;
          }
          for (CgroupWatch w : fired) {
            Registration r = e.byWatch.get(w);
            if (r != null && r.ending == null) {
              signalled.add(r);
            }
          }
        }
        for (Registration r : signalled) {
          check(r);
        }
        signalled.clear();
      }
    } catch (IOException ex) {
      failure =
          new Registration.Ending(
              Notification.Kind.ENDED,
              Errors.codeOf(ex),
              "the notification watcher failed: " + ex.getMessage());
    } catch (InterruptedException ex) {
      failure =
          new Registration.Ending(
              Notification.Kind.ENDED,
              ErrorCode.CANCELLED,
              "the notification thread was interrupted");
    } catch (RuntimeException ex) {
      failure =
          new Registration.Ending(
              Notification.Kind.ENDED,
              ErrorCode.INTERNAL,
              "the notification watcher failed: " + ex);
    } finally {
      synchronized (this) {
        if (failure != null
            || !e.stopping) { // a failure: end this engine's registrations; none joins it
          if (engine == e) {
            engine = null;
          }
          for (Registration r : new ArrayList<>(e.byWatch.values())) {
            end(
                r,
                failure != null
                    ? failure
                    : new Registration.Ending(
                        Notification.Kind.ENDED,
                        ErrorCode.INTERNAL,
                        "the notification thread stopped"));
          }
        }
      }
      try {
        e.watcher.close();
      } catch (IOException | RuntimeException ex) {
        LOG.warn("closing the notification watcher failed", ex);
      }
    }
  }

  /** After a signal: the cgroup went away (DESTROYED), an event to deliver, or nothing. */
  private void check(Registration r) {
    try {
      if (!r.source.exists()) {
        ending(r, Registration.destroyed());
        return;
      }
      String detail = r.source.check();
      if (detail != null) {
        synchronized (this) {
          if (r.ending != null) {
            return;
          }
          r.engine.queue.add(new Item(r, Notification.Kind.EVENT, ErrorCode.OK, detail, false));
          notifyAll();
        }
        flight.notified(r.id, r.name.value(), r.event);
      }
    } catch (IOException e) {
      boolean gone;
      try {
        gone = !r.source.exists();
      } catch (IOException again) {
        e.addSuppressed(again);
        gone = false;
      }
      ending(
          r,
          gone
              ? Registration.destroyed()
              : new Registration.Ending(
                  Notification.Kind.ENDED,
                  Errors.codeOf(e),
                  "notification of " + r.name + " failed: " + e.getMessage()));
    } catch (RuntimeException e) {
      ending(
          r,
          new Registration.Ending(
              Notification.Kind.ENDED,
              ErrorCode.INTERNAL,
              "notification of " + r.name + " failed: " + e));
    }
  }

  private synchronized void ending(Registration r, Registration.Ending why) {
    end(r, why);
  }

  // ---- the delivery thread

  private void deliveryLoop(Engine e) {
    while (true) {
      Item it;
      synchronized (this) {
        while (e.queue.isEmpty() && !e.stopping) {
          try {
            wait();
          } catch (InterruptedException ex) {
            // nobody interrupts this thread but a JVM shutting down: go on until stopped
          }
        }
        it = e.queue.poll();
        if (it == null) {
          return; // stopping, and nothing left
        }
        if (it.r.done) {
          continue; // unregistered: nothing of it is delivered any more
        }
        e.delivering = it.r;
      }
      try {
        it.r.listener.onEvent(it.r.notification(it.kind, it.status, it.detail));
      } catch (RuntimeException ex) {
        LOG.warn(
            "the listener of notification {} ({} on {}) threw; its notifications go on",
            it.r.id,
            it.r.event.toJson(),
            it.r.name,
            ex);
      }
      synchronized (this) {
        e.delivering = null;
        if (it.last && !it.r.done) {
          done(it.r);
        }
        notifyAll();
      }
    }
  }
}
