package org.lmctfy;

/**
 * Receives the notifications of one {@link Container#registerNotification} registration.
 *
 * <p>Called on the one delivery thread the library runs per {@link ContainerApi} while any
 * registration lives ({@code lmctfy-notify-deliver}), one notification at a time for all
 * registrations of that API, in the order the library found them, so an implementation needs no
 * locking for its own registration. A listener that blocks delays the notifications of every
 * registration of its API (not their detection: a second thread, {@code lmctfy-notify-watch}, keeps
 * reading the kernel): hand long work to an executor of your own. A listener that throws is logged
 * at warn and called again for the next notification; other registrations are not affected. It may
 * call the library, including {@link Container#unregisterNotification} of its own registration.
 *
 * <pre>{@code
 * long id = job.registerNotification(EventSpec.containerEmpty(), n -> done.countDown());
 * }</pre>
 *
 * @since 0.1
 */
@FunctionalInterface
public interface NotificationListener {
  /** Called for each notification of the registration; see {@link Notification}. */
  void onEvent(Notification notification);
}
