package org.lmctfy.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.lmctfy.Notification;
import org.lmctfy.NotificationListener;

/** A listener that keeps what it is told, with the name of the thread that told it. */
final class Events implements NotificationListener {
  /** Waiting for an event that must come; not a timing assertion. */
  static final Duration DEADLINE = Duration.ofSeconds(20);

  private final BlockingQueue<Notification> queue = new LinkedBlockingQueue<>();
  private final List<Notification> all = new ArrayList<>();
  private final List<String> threads = new ArrayList<>();

  @Override
  public synchronized void onEvent(Notification n) {
    all.add(n);
    threads.add(Thread.currentThread().getName());
    queue.add(n);
  }

  /** The next notification, waiting up to {@code deadline}; fails if none comes. */
  Notification next(Duration deadline) throws InterruptedException {
    Notification n = queue.poll(deadline.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(n).as("a notification within " + deadline).isNotNull();
    return n;
  }

  Notification next() throws InterruptedException {
    return next(DEADLINE);
  }

  /** Notifications until the last one, which is returned. */
  Notification untilLast() throws InterruptedException {
    while (true) {
      Notification n = next();
      if (n.last()) {
        return n;
      }
    }
  }

  synchronized List<Notification> all() {
    return List.copyOf(all);
  }

  synchronized List<String> threads() {
    return List.copyOf(threads);
  }
}
