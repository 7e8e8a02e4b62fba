package org.lmctfy;

/**
 * Receives the notifications of one {@link Container#registerNotification} registration.
 *
 * <p>Called on a thread the library owns ({@code lmctfy-notify-<id>}), one notification at a time
 * per registration, so an implementation needs no locking for its own registration. A slow
 * listener delays only its own registration. A listener that throws is logged at warn and called
 * again for the next notification; other registrations are not affected. It may call the library,
 * including {@link Container#unregisterNotification} of its own registration.
 *
 * <pre>{@code
 * long id = job.registerNotification(EventSpec.containerEmpty(), n -> done.countDown());
 * }</pre>
 *
 * @since 0.1
 */
@FunctionalInterface
public interface NotificationListener {
  /**
   * Called for each notification of the registration; see {@link Notification}.
   *
   * @param notification the notification
   */
  void onEvent(Notification notification);
}
