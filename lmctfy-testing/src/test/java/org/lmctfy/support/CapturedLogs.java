package org.lmctfy.support;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The tests' SLF4J binding: keeps every event at every level in memory, so that a test can check
 * what the library logs ({@link #since}), and prints WARN and ERROR to standard error.
 */
public final class CapturedLogs implements SLF4JServiceProvider {
  /** One logged event, its message formatted. */
  public record Event(Level level, String logger, String message) {}

  private static final int KEPT = 100_000;
  private static final ArrayDeque<Event> EVENTS = new ArrayDeque<>();
  private static long logged;

  private final ILoggerFactory loggers =
      new ILoggerFactory() {
        private final ConcurrentHashMap<String, Logger> made = new ConcurrentHashMap<>();

        @Override
        public Logger getLogger(String name) {
          return made.computeIfAbsent(name, Capturing::new);
        }
      };
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();

  /** A mark in the event log, for {@link #since}. */
  public static long mark() {
    synchronized (EVENTS) {
      return logged;
    }
  }

  /** The events logged since {@code mark}, by any thread (the last {@value #KEPT} at most). */
  public static List<Event> since(long mark) {
    synchronized (EVENTS) {
      List<Event> all = new ArrayList<>(EVENTS);
      int skip = (int) Math.max(0, all.size() - (logged - mark));
      return List.copyOf(all.subList(skip, all.size()));
    }
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return loggers;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {}

  private static final class Capturing extends LegacyAbstractLogger {
    Capturing(String name) {
      this.name = name;
    }

    @Override
    public boolean isTraceEnabled() {
      return false;
    }

    @Override
    public boolean isDebugEnabled() {
      return true;
    }

    @Override
    public boolean isInfoEnabled() {
      return true;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
        Level level, Marker marker, String pattern, Object[] args, Throwable t) {
      String message = MessageFormatter.basicArrayFormat(pattern, args);
      synchronized (EVENTS) {
        if (EVENTS.size() == KEPT) {
          EVENTS.removeFirst(); // a long run's DEBUG lines: the oldest go
        }
        EVENTS.addLast(new Event(level, name, message));
        logged++;
      }
      if (level == Level.WARN || level == Level.ERROR) {
        System.err.println(level + " " + name + ": " + message + (t == null ? "" : " " + t));
      }
    }
  }
}
