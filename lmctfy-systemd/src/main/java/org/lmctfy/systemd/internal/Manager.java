package org.lmctfy.systemd.internal;

import java.util.List;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

/**
 * The calls of {@code org.freedesktop.systemd1.Manager} the driver makes, with their D-Bus
 * signatures as Java types (the connection takes the types from here), and the signal {@code
 * JobRemoved}.
 */
@DBusInterfaceName("org.freedesktop.systemd1.Manager")
public interface Manager extends DBusInterface {
  /** {@code StartTransientUnit(s name, s mode, a(sv) properties, a(sa(sv)) aux) -> o job}. */
  DBusPath StartTransientUnit(
      String name, String mode, List<Property> properties, List<AuxUnit> aux);

  /** {@code StopUnit(s name, s mode) -> o job}. */
  DBusPath StopUnit(String name, String mode);

  /** {@code ResetFailedUnit(s name)}. */
  void ResetFailedUnit(String name);

  /** {@code GetUnit(s name) -> o unit}. */
  DBusPath GetUnit(String name);

  /**
   * {@code Subscribe()}: signals to this client of the bus (a private connection is subscribed).
   */
  void Subscribe();

  /** {@code org.freedesktop.DBus.Properties.Get(s interface, s property) -> v}. */
  Variant<?> Get(String iface, String property);

  /** {@code JobRemoved(u id, o job, s unit, s result)}. */
  final class JobRemoved extends DBusSignal {
    private final long id;
    private final String job;
    private final String unit;
    private final String result;

    /**
     * As dbus-java builds it from the message.
     *
     * @param path the object path of the sender
     * @param id the job's number
     * @param job the job's object path
     * @param unit the unit's name
     * @param result done, failed...
     * @throws DBusException if the message cannot be built
     */
    public JobRemoved(String path, UInt32 id, DBusPath job, String unit, String result)
        throws DBusException {
      super(path, id, job, unit, result);
      this.id = id.longValue();
      this.job = job.getPath();
      this.unit = unit;
      this.result = result;
    }

    long id() {
      return id;
    }

    String job() {
      return job;
    }

    String unit() {
      return unit;
    }

    String result() {
      return result;
    }
  }
}
