package org.lmctfy.systemdbus;

import java.io.IOException;
import java.time.Duration;

/**
 * Connects to a systemd manager: the service that {@code ContainerApi.open()} finds with {@link
 * java.util.ServiceLoader} when {@code lmctfy-systemd} is on the class or module path, or one a
 * caller passes to {@code ContainerApi.open(CgroupFs, SystemdConnector, ApiOptions)} (such as
 * {@code lmctfy-testing}'s {@code FakeSystemd}). Implementations are thread-safe.
 *
 * @since 0.1 (in {@code org.lmctfy.cgroupfs} until 0.2)
 */
public interface SystemdConnector {
  /**
   * Connects to the manager of {@code scope}: PID 1, or the calling user's manager.
   *
   * @param scope which manager
   * @param timeout how long the connection and each of its calls may take
   * @return the connection; the caller closes it
   * @throws IOException a {@link SystemdException}: {@code org.freedesktop.DBus.Error.NoServer}
   *     naming every address tried when none answers, {@code org.freedesktop.DBus.Error.NoReply}
   *     when the deadline passed, or what the manager answered
   */
  SystemdManager connect(SystemdManager.Scope scope, Duration timeout) throws IOException;
}
