/**
 * lmctfy for Java's systemd driver, its D-Bus side: a {@link
 * org.lmctfy.systemdbus.SystemdConnector} over dbus-java that {@code ContainerApi.open()} finds
 * where systemd runs the machine. Root's connection goes to PID 1's private socket, then the system
 * bus; another user's to their own manager's private socket, then the session bus. Nothing here is
 * needed where systemd is not.
 */
module org.lmctfy.systemd {
  requires org.lmctfy;
  requires org.freedesktop.dbus;
  requires org.freedesktop.dbus.transport.jre; // dbus-java finds its transport with ServiceLoader
  requires org.slf4j;
  requires jdk.security.auth; // the effective uid, for /run/user/<uid>

  exports org.lmctfy.systemd;

  // dbus-java proxies the interface and reads and builds the structs and the signal by reflection
  opens org.lmctfy.systemd.internal to
      org.freedesktop.dbus;

  exports org.lmctfy.systemd.internal to
      org.freedesktop.dbus;

  provides org.lmctfy.systemdbus.SystemdConnector with
      org.lmctfy.systemd.DbusSystemdConnector;
}
