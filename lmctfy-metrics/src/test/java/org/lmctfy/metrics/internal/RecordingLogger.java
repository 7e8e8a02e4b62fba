package org.lmctfy.metrics.internal;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** A logger that keeps what it is told, every level, for a test to read. */
final class RecordingLogger extends LegacyAbstractLogger {
  private static final long serialVersionUID = 1L;

  private final List<Level> levels = new ArrayList<>();
  private final List<String> messages = new ArrayList<>();

  RecordingLogger() {
    this.name = "test";
  }

  /** The messages logged at {@code level}, formatted, in order. */
  synchronized List<String> events(Level level) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < levels.size(); i++) {
      if (levels.get(i) == level) {
        out.add(messages.get(i));
      }
    }
    return out;
  }

  @Override
  protected synchronized void handleNormalizedLoggingCall(
      Level level, Marker marker, String pattern, Object[] arguments, Throwable throwable) {
    levels.add(level);
    messages.add(MessageFormatter.basicArrayFormat(pattern, arguments));
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  public boolean isTraceEnabled() {
    return true;
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
}
