package org.lmctfy.internal.jfr;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import org.jspecify.annotations.Nullable;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.ContainerStats.MemoryStats;
import org.lmctfy.spec.ContainerStats.Pressure;
import org.lmctfy.spec.ContainerStats.Stall;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.EventSpec.PressureTrigger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The flight of an API where the runtime has JFR. No event class is loaded before JFR is
 * initialized (the first load of one makes JFR read its metadata: a third of a second on JDK 17),
 * so until then each event costs one static read. The periodic statistics are registered with
 * {@link FlightRecorder#addPeriodicEvent} once JFR is initialized: at once when it already is, else
 * by a {@link FlightRecorderListener} when a recording first starts (a {@code jcmd JFR.start} later
 * on); {@link #close} removes both. Each period reads the stats of at most {@value #PER_PERIOD} of
 * the containers the API handles, in the order it took them up; one found gone is dropped.
 */
final class JfrFlight implements Flight {
  /** The containers one period reads at most. */
  static final int PER_PERIOD = 1000;

  /** What {@code jfr print} shows as N/A: a figure this kernel does not keep. */
  private static final long NA = Long.MIN_VALUE;

  private static final Logger LOG = LoggerFactory.getLogger(JfrFlight.class);

  private final Sampler sampler;
  private final LinkedHashSet<String> handled = new LinkedHashSet<>();
  private final Listener listener = new Listener();
  private Runnable hook;
  private boolean closed;
  private boolean saidCut;

  private JfrFlight(Sampler sampler) {
    this.sampler = sampler;
  }

  static Flight open(Sampler sampler) {
    JfrFlight f = new JfrFlight(sampler);
    // calls recorderInitialized before it returns where JFR is initialized already
    FlightRecorder.addListener(f.listener);
    return f;
  }

  /** Registers the periodic statistics once JFR is initialized. */
  private final class Listener implements FlightRecorderListener {
    @Override
    public void recorderInitialized(FlightRecorder recorder) {
      synchronized (JfrFlight.this) {
        if (closed || hook != null) {
          return;
        }
        hook = JfrFlight.this::period;
        FlightRecorder.addPeriodicEvent(ContainerStatisticsEvent.class, hook);
      }
    }
  }

  @Override
  public synchronized void handles(String container) {
    if (!closed) {
      handled.add(container);
    }
  }

  @Override
  public synchronized void destroyed(String container) {
    handled.remove(container);
  }

  @Override
  public void notified(long registration, String container, EventSpec event) {
    if (!FlightRecorder.isInitialized()) {
      return; // no recording ever ran: load no event class
    }
    ContainerNotificationEvent e;
    if (event.oomEvent() != null) {
      e = new ContainerOomEvent();
    } else if (event.memoryHighEvent() != null) {
      e = new ContainerMemoryHighEvent();
    } else if (event.pressure() != null) {
      e = new ContainerPressureEvent();
    } else if (event.containerEmptyEvent() != null) {
      e = new ContainerEmptyEvent();
    } else {
      return; // memory_threshold and container_destroyed have no event of their own
    }
    if (!e.shouldCommit()) {
      return;
    }
    e.container = container;
    e.registration = registration;
    ContainerStats stats = e instanceof ContainerEmptyEvent ? null : read(container);
    MemoryStats m = stats == null ? null : stats.memory();
    if (e instanceof ContainerOomEvent oom) {
      oom.memoryUsage = m == null ? NA : m.usage();
      oom.memoryLimit = m == null ? NA : or(m.limit());
      oom.oomEvents = m == null ? NA : or(m.oomEvents());
      oom.oomKills = m == null ? NA : or(m.oomKills());
    } else if (e instanceof ContainerMemoryHighEvent high) {
      high.highEvents = m == null ? NA : or(m.highEvents());
      high.memoryUsage = m == null ? NA : m.usage();
    } else if (e instanceof ContainerPressureEvent p) {
      pressure(p, event.pressure(), stats);
    }
    e.commit();
  }

  private static void pressure(
      ContainerPressureEvent e, PressureTrigger trigger, @Nullable ContainerStats stats) {
    Pressure p = pressureOf(stats, trigger.resource());
    Stall s = p == null ? null : trigger.kind() == PressureTrigger.Kind.SOME ? p.some() : p.full();
    e.resource = trigger.resource().name().toLowerCase(Locale.ROOT);
    e.stall = trigger.kind().name().toLowerCase(Locale.ROOT);
    e.threshold = trigger.thresholdUs();
    e.window = trigger.windowUs();
    e.avg10 = s == null ? Float.NaN : (float) (s.avg10() / 100);
    e.avg60 = s == null ? Float.NaN : (float) (s.avg60() / 100);
    e.total = s == null ? NA : s.totalNs();
  }

  private static @Nullable Pressure pressureOf(
      @Nullable ContainerStats stats, PressureTrigger.Resource resource) {
    if (stats == null || stats.pressure() == null) {
      return null;
    }
    return switch (resource) {
      case CPU -> stats.pressure().cpu();
      case MEMORY -> stats.pressure().memory();
      case IO -> stats.pressure().io();
    };
  }

  /** The stats of one container for an event; null where unreadable (the event then has none). */
  private @Nullable ContainerStats read(String container) {
    try {
      return sampler.reader().apply(container);
    } catch (LmctfyException e) {
      LOG.debug("JFR: the stats of {}: {}", container, e.getMessage());
      return null;
    }
  }

  @Override
  public Destroying destroying(String container, Supplier<@Nullable ContainerStats> stats) {
    if (!FlightRecorder.isInitialized()) {
      return () -> {};
    }
    ContainerDestroyEvent e = new ContainerDestroyEvent();
    if (!e.isEnabled()) {
      return () -> {};
    }
    ContainerStats s = stats.get();
    MemoryStats m = s == null ? null : s.memory();
    e.container = container;
    e.cpuTime = s == null || s.cpu() == null ? NA : s.cpu().totalNs();
    e.memoryUsage = m == null ? NA : m.usage();
    e.memoryPeak = m == null ? NA : or(m.maxUsage());
    e.oomKills = m == null ? NA : or(m.oomKills());
    e.begin();
    return () -> {
      e.end();
      if (e.shouldCommit()) {
        e.commit();
      }
    };
  }

  /** One period of the statistics, on JFR's periodic thread. */
  private void period() {
    List<String> names;
    int all;
    synchronized (this) {
      if (closed) {
        return;
      }
      all = handled.size();
      names = new ArrayList<>(Math.min(all, PER_PERIOD));
      for (String n : handled) {
        if (names.size() == PER_PERIOD) {
          break;
        }
        names.add(n);
      }
      if (all > PER_PERIOD && !saidCut) {
        saidCut = true;
        LOG.warn(
            "JFR org.lmctfy.ContainerStatistics: this API handles {} containers; each period"
                + " records the first {} it took up",
            all,
            PER_PERIOD);
      }
    }
    Function<String, ContainerStats> reader = sampler.reader();
    for (String name : names) {
      ContainerStats s;
      try {
        s = reader.apply(name);
      } catch (LmctfyException e) {
        if (e.code() == ErrorCode.NOT_FOUND) {
          destroyed(name); // destroyed by someone else: its statistics end
        } else {
          LOG.debug("JFR statistics of {}: {}", name, e.getMessage(), e);
        }
        continue;
      }
      statistics(name, s);
    }
  }

  private static void statistics(String name, ContainerStats s) {
    ContainerStatisticsEvent e = new ContainerStatisticsEvent();
    MemoryStats m = s.memory();
    e.container = name;
    e.cpuTime = s.cpu() == null ? NA : s.cpu().totalNs();
    e.cpuUserTime = s.cpu() == null ? NA : or(s.cpu().userNs());
    e.cpuSystemTime = s.cpu() == null ? NA : or(s.cpu().systemNs());
    e.memoryUsage = m == null ? NA : m.usage();
    e.memoryWorkingSet = m == null ? NA : or(m.workingSet());
    e.memoryLimit = m == null ? NA : or(m.effectiveLimit());
    e.oomKills = m == null ? NA : or(m.oomKills());
    e.highEvents = m == null ? NA : or(m.highEvents());
    e.tasks = s.pids() == null ? NA : s.pids().current();
    e.taskLimit = s.pids() == null ? NA : or(s.pids().limit());
    Pressure cpu = s.pressure() == null ? null : s.pressure().cpu();
    Pressure memory = s.pressure() == null ? null : s.pressure().memory();
    Pressure io = s.pressure() == null ? null : s.pressure().io();
    e.cpuPressure = share(cpu == null ? null : cpu.some());
    e.memoryPressure = share(memory == null ? null : memory.some());
    e.memoryFullPressure = share(memory == null ? null : memory.full());
    e.ioPressure = share(io == null ? null : io.some());
    e.commit();
  }

  private static float share(@Nullable Stall s) {
    return s == null ? Float.NaN : (float) (s.avg10() / 100);
  }

  private static long or(@Nullable Long v) {
    return v == null ? NA : v;
  }

  @Override
  public void close() {
    Runnable h;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      handled.clear();
      h = hook;
    }
    FlightRecorder.removeListener(listener);
    if (h != null) {
      FlightRecorder.removePeriodicEvent(h);
    }
  }
}
