package org.lmctfy.systemdbus;

import java.io.IOException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A systemd manager refused or did not answer: the D-Bus error name ({@code
 * org.freedesktop.systemd1.UnitExists}, {@code org.freedesktop.DBus.Error.AccessDenied}...) and the
 * manager's message. The facade turns it into a {@code LmctfyException} naming the unit and the
 * remedy.
 *
 * @since 0.1 (in {@code org.lmctfy.cgroupfs} until 0.2)
 */
public class SystemdException extends IOException {
  private static final long serialVersionUID = 1L;

  /** A unit of that name is loaded. */
  public static final String UNIT_EXISTS = "org.freedesktop.systemd1.UnitExists";

  /** No unit of that name is loaded. */
  public static final String NO_SUCH_UNIT = "org.freedesktop.systemd1.NoSuchUnit";

  /** The caller may not do that (a user asking PID 1 for a unit, through polkit). */
  public static final String ACCESS_DENIED = "org.freedesktop.DBus.Error.AccessDenied";

  /** polkit would ask a person, and nobody was asked. */
  public static final String INTERACTIVE_AUTHORIZATION_REQUIRED =
      "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired";

  /** No manager answered at any address tried. */
  public static final String NO_SERVER = "org.freedesktop.DBus.Error.NoServer";

  /** The manager did not answer within the deadline. */
  public static final String NO_REPLY = "org.freedesktop.DBus.Error.NoReply";

  /** The connection went away. */
  public static final String DISCONNECTED = "org.freedesktop.DBus.Error.Disconnected";

  /** The manager does not know a property it was given. */
  public static final String UNKNOWN_PROPERTY = "org.freedesktop.DBus.Error.UnknownProperty";

  /** The manager refused an argument. */
  public static final String INVALID_ARGS = "org.freedesktop.DBus.Error.InvalidArgs";

  /** The D-Bus error name. */
  private final String errorName;

  /**
   * A refusal.
   *
   * @param errorName the D-Bus error name
   * @param message what the manager or the transport said
   * @param cause the library's exception, or null
   */
  public SystemdException(String errorName, String message, @Nullable Throwable cause) {
    super(errorName + ": " + message, cause);
    this.errorName = Objects.requireNonNull(errorName, "errorName");
  }

  /**
   * The D-Bus error name.
   *
   * @return the error name, such as {@code org.freedesktop.systemd1.UnitExists}
   */
  public String errorName() {
    return errorName;
  }
}
