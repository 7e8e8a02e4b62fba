package org.lmctfy.systemd.internal;

import java.util.List;
import org.freedesktop.dbus.Struct;
import org.freedesktop.dbus.annotations.Position;

/** One {@code (sa(sv))}: an auxiliary unit of StartTransientUnit (the driver sends none). */
public final class AuxUnit extends Struct {
  /** The unit's name. */
  @Position(0)
  public final String name;

  /** Its properties. */
  @Position(1)
  public final List<Property> properties;

  /**
   * An auxiliary unit.
   *
   * @param name its name
   * @param properties its properties
   */
  public AuxUnit(String name, List<Property> properties) {
    this.name = name;
    this.properties = properties;
  }
}
