package org.lmctfy.jfr;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

/** A RecordingStream of the library's events, kept in arrival order for a test to wait on. */
final class Recorded implements AutoCloseable {
  static final String STATISTICS = "org.lmctfy.ContainerStatistics";
  static final String DESTROY = "org.lmctfy.ContainerDestroy";
  static final String OOM = "org.lmctfy.ContainerOom";
  static final String EMPTY = "org.lmctfy.ContainerEmpty";
  static final String PRESSURE = "org.lmctfy.ContainerPressure";
  static final String MEMORY_HIGH = "org.lmctfy.ContainerMemoryHigh";

  /** Waiting for an event that must come (JFR flushes each second); not a timing assertion. */
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private final RecordingStream stream = new RecordingStream();
  private final BlockingQueue<RecordedEvent> queue = new LinkedBlockingQueue<>();

  /** Records the notification and destroy events, and the statistics every 100 ms. */
  static Recorded start() {
    Recorded r = new Recorded();
    for (String name : new String[] {DESTROY, OOM, EMPTY, PRESSURE, MEMORY_HIGH}) {
      r.stream.enable(name);
      r.stream.onEvent(name, r.queue::add);
    }
    r.stream.enable(STATISTICS).withPeriod(Duration.ofMillis(100));
    r.stream.onEvent(STATISTICS, r.queue::add);
    r.stream.startAsync();
    return r;
  }

  /** The next event of {@code type} for {@code container}; fails if none comes in time. */
  RecordedEvent next(String type, String container) throws InterruptedException {
    return next(type, e -> container.equals(e.getString("container")));
  }

  RecordedEvent next(String type, Predicate<RecordedEvent> which) throws InterruptedException {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      RecordedEvent e = queue.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
      assertThat(e).as("a " + type + " event within " + DEADLINE).isNotNull();
      if (e.getEventType().getName().equals(type) && which.test(e)) {
        return e;
      }
    }
  }

  @Override
  public void close() {
    stream.close();
  }
}
