package org.lmctfy.internal.jfr;

import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.EventSpec;

/**
 * What one ContainerApi tells JDK Flight Recorder. Every call costs a static read and nothing more
 * while no recording has ever run in this JVM; the figures of an event are read only when a
 * recording wants it, and no event class is loaded before JFR is initialized. Thread-safe.
 */
public interface Flight extends AutoCloseable {

  /** How the flight reads the containers of the API, one at a time. */
  interface Sampler {
    /**
     * A reader for one period or one event: its buffers serve every container it reads.
     *
     * @return the SUMMARY stats of a container by name; NOT_FOUND (an LmctfyException) for one gone
     */
    Function<String, ContainerStats> reader();
  }

  /** A destroy under way: its event, begun. */
  interface Destroying {
    /** The destroy succeeded: its event ends and is committed. */
    void done();
  }

  /** A flight that records nothing (tests, and parts of the library that record nothing). */
  Flight OFF = new Off();

  /** The flight of one API, JFR's; it reads the containers through {@code sampler}. */
  static Flight open(Sampler sampler) {
    return JfrFlight.open(sampler);
  }

  /**
   * The periodic statistics cover {@code container}, which this API created or got, from now on.
   */
  void handles(String container);

  /** {@code container} was destroyed: its statistics end. */
  void destroyed(String container);

  /**
   * Registration {@code registration} on {@code container}, for {@code event}, found an event:
   * recorded for oom, memory_high, pressure and container_empty. Called on the notification watch
   * thread, never with a lock held.
   */
  void notified(long registration, String container, EventSpec event);

  /**
   * A destroy of {@code container} begins; {@code stats} (what it used, null where unreadable) is
   * called only when a recording wants the event.
   */
  Destroying destroying(String container, Supplier<@Nullable ContainerStats> stats);

  /** Stops the periodic statistics of this API. */
  @Override
  void close();

  /** Records nothing. */
  final class Off implements Flight {
    private Off() {}

    @Override
    public void handles(String container) {}

    @Override
    public void destroyed(String container) {}

    @Override
    public void notified(long registration, String container, EventSpec event) {}

    @Override
    public Destroying destroying(String container, Supplier<@Nullable ContainerStats> stats) {
      return () -> {};
    }

    @Override
    public void close() {}
  }
}
