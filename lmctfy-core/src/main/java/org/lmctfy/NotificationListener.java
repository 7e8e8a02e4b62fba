package org.lmctfy;

import org.lmctfy.spec.EventSpec;

/**
 * Receives the events of one {@link Container#registerNotification} registration, one at a time,
 * on a thread the library owns.
 *
 * @since 0.1
 */
@FunctionalInterface
public interface NotificationListener {
  /**
   * Called when {@code event} happened to {@code containerName}.
   *
   * @param status OK for an event; a failure code with the registration's last call when the
   *     container was destroyed or the registration could not go on
   */
  void onEvent(String containerName, EventSpec event, ErrorCode status);
}
