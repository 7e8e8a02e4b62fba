package org.lmctfy.systemd;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.lmctfy.systemd.internal.DbusManager;
import org.lmctfy.systemdbus.SystemdConnector;
import org.lmctfy.systemdbus.SystemdException;
import org.lmctfy.systemdbus.SystemdManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connects to systemd over D-Bus with dbus-java, trying in turn, as systemd's own tools do: for the
 * system manager, {@code /run/systemd/private} (PID 1's own socket, root only, no bus daemon
 * needed) and then the system bus ({@code $DBUS_SYSTEM_BUS_ADDRESS}, else {@code
 * /run/dbus/system_bus_socket}); for the user's manager, {@code $XDG_RUNTIME_DIR/systemd/private},
 * then {@code $DBUS_SESSION_BUS_ADDRESS}, then {@code $XDG_RUNTIME_DIR/bus}, where {@code
 * XDG_RUNTIME_DIR} is {@code /run/user/<uid>} when unset (as after {@code su}). A socket file that
 * is not there is not tried. {@code ContainerApi.open()} finds this class with {@link
 * java.util.ServiceLoader}; nothing needs to name it.
 *
 * <pre>{@code
 * try (SystemdManager m = new DbusSystemdConnector().connect(SystemdManager.Scope.USER, Duration.ofSeconds(5))) {
 *   System.out.println(m.address() + " " + m.version());
 * }
 * }</pre>
 *
 * <p>Thread-safe; each connection has dbus-java's threads (daemons) until it is closed.
 *
 * @since 0.1
 */
public final class DbusSystemdConnector implements SystemdConnector {
  private static final Logger LOG = LoggerFactory.getLogger(DbusSystemdConnector.class);
  private final Map<String, String> environment;
  private final long uid;

  /** The connector of this process: its environment and its effective uid. */
  public DbusSystemdConnector() {
    this(System.getenv(), new com.sun.security.auth.module.UnixSystem().getUid());
  }

  DbusSystemdConnector(Map<String, String> environment, long uid) {
    this.environment = environment;
    this.uid = uid;
  }

  /**
   * One place to try: a D-Bus address, and whether it is a bus (else PID 1's or a manager's own
   * socket).
   */
  record Address(String address, boolean bus) {}

  /** The addresses to try for {@code scope}, in order. */
  List<Address> addresses(SystemdManager.Scope scope) {
    List<Address> out = new ArrayList<>();
    if (scope == SystemdManager.Scope.SYSTEM) {
      if (uid == 0) {
        out.add(new Address("unix:path=/run/systemd/private", false));
      }
      String system = environment.get("DBUS_SYSTEM_BUS_ADDRESS");
      out.add(
          new Address(
              system != null && !system.isBlank()
                  ? system
                  : "unix:path=/run/dbus/system_bus_socket",
              true));
      return out;
    }
    String runtime = environment.get("XDG_RUNTIME_DIR");
    if (runtime == null || !runtime.startsWith("/")) {
      runtime = "/run/user/" + uid;
    }
    out.add(new Address("unix:path=" + runtime + "/systemd/private", false));
    String session = environment.get("DBUS_SESSION_BUS_ADDRESS");
    if (session != null && !session.isBlank()) {
      out.add(new Address(session, true));
    }
    out.add(new Address("unix:path=" + runtime + "/bus", true));
    return out;
  }

  @Override
  public SystemdManager connect(SystemdManager.Scope scope, Duration timeout)
      throws SystemdException {
    List<String> tried = new ArrayList<>();
    SystemdException last = null;
    for (Address a : addresses(scope)) {
      Path socket = socketPath(a.address());
      if (socket != null && !Files.exists(socket)) {
        tried.add(a.address() + " (no such socket)");
        continue;
      }
      try {
        DbusManager m = DbusManager.connect(scope, a.address(), a.bus(), timeout);
        LOG.debug("connected to the {} manager at {}", scope, a.address());
        return m;
      } catch (SystemdException e) {
        tried.add(a.address() + " (" + e.getMessage() + ")");
        last = e;
        if (SystemdException.NO_REPLY.equals(e.errorName())) {
          break; // the deadline is spent
        }
      }
    }
    throw new SystemdException(
        last != null && SystemdException.NO_REPLY.equals(last.errorName())
            ? SystemdException.NO_REPLY
            : SystemdException.NO_SERVER,
        "no "
            + (scope == SystemdManager.Scope.SYSTEM ? "system" : "user")
            + " manager answers; tried "
            + String.join(", ", tried),
        last);
  }

  /** The path of a {@code unix:path=...} address, or null for any other. */
  static Path socketPath(String address) {
    if (!address.startsWith("unix:path=")) {
      return null;
    }
    String rest = address.substring("unix:path=".length());
    int comma = rest.indexOf(',');
    return Path.of(comma < 0 ? rest : rest.substring(0, comma));
  }
}
