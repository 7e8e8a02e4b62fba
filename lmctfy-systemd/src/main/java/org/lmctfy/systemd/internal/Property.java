package org.lmctfy.systemd.internal;

import org.freedesktop.dbus.Struct;
import org.freedesktop.dbus.annotations.Position;
import org.freedesktop.dbus.types.Variant;

/** One {@code (sv)} of a unit's properties. */
public final class Property extends Struct {
  /** The property's name. */
  @Position(0)
  public final String name;

  /** Its value. */
  @Position(1)
  public final Variant<?> value;

  /**
   * A property.
   *
   * @param name its name, such as {@code Delegate}
   * @param value its value
   */
  public Property(String name, Variant<?> value) {
    this.name = name;
    this.value = value;
  }
}
