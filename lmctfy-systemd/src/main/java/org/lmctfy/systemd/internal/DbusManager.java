package org.lmctfy.systemd.internal;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.Marshalling;
import org.freedesktop.dbus.connections.AbstractConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.connections.impl.DirectConnectionBuilder;
import org.freedesktop.dbus.messages.Message;
import org.freedesktop.dbus.messages.MethodCall;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.systemdbus.SystemdException;
import org.lmctfy.systemdbus.SystemdManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link SystemdManager} over one dbus-java connection: a private (peer-to-peer) one to {@code
 * /run/systemd/private} or {@code $XDG_RUNTIME_DIR/systemd/private}, or a bus connection with the
 * destination {@code org.freedesktop.systemd1}. Each call is a message sent and its answer awaited
 * for at most the deadline (dbus-java's own wait is global; this one is per connection), and a
 * refusal keeps the D-Bus error's name.
 */
public final class DbusManager implements SystemdManager {
  private static final Logger LOG = LoggerFactory.getLogger(DbusManager.class);
  private static final String DESTINATION = "org.freedesktop.systemd1";
  private static final String PATH = "/org/freedesktop/systemd1";
  private static final String MANAGER = "org.freedesktop.systemd1.Manager";
  private static final String PROPERTIES = "org.freedesktop.DBus.Properties";

  private final Scope scope;
  private final String address;
  private final AbstractConnection connection;
  private final String destination;
  private final Duration timeout;

  private DbusManager(
      Scope scope, String address, AbstractConnection connection, boolean bus, Duration timeout) {
    this.scope = scope;
    this.address = address;
    this.connection = connection;
    this.destination = bus ? DESTINATION : null;
    this.timeout = timeout;
  }

  /**
   * Connects to {@code address}: a private socket ({@code bus} false) or a message bus, within
   * {@code timeout} (the connection and its authentication run on a thread of their own, left
   * behind if the deadline passes).
   */
  public static DbusManager connect(Scope scope, String address, boolean bus, Duration timeout)
      throws SystemdException {
    CompletableFuture<AbstractConnection> made = new CompletableFuture<>();
    Thread connecting =
        new Thread(
            () -> {
              try {
                // one connection attempt (dbus-java retries a refused connect every 500 ms for its
                // transport
                // timeout, 10 s by default: a stale socket file would spend the deadline of every
                // address)
                AbstractConnection c =
                    bus
                        ? DBusConnectionBuilder.forAddress(address)
                            .withShared(false)
                            .transportConfig()
                            .withTimeout(500)
                            .back()
                            .build()
                        : DirectConnectionBuilder.forAddress(address)
                            .transportConfig()
                            .withTimeout(500)
                            .back()
                            .build();
                if (!made.complete(c)) {
                  c.close(); // too late: the caller gave up
                }
              } catch (Exception | LinkageError e) {
                made.completeExceptionally(e);
              }
            },
            "lmctfy-dbus-connect");
    connecting.setDaemon(true);
    connecting.start();
    AbstractConnection connection;
    try {
      connection = made.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      made.cancel(false);
      throw new SystemdException(
          SystemdException.NO_REPLY, "no connection to " + address + " within " + timeout, e);
    } catch (ExecutionException e) {
      throw new SystemdException(
          SystemdException.NO_SERVER,
          "cannot connect to " + address + ": " + e.getCause().getMessage(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SystemdException(
          SystemdException.NO_REPLY, "interrupted while connecting to " + address, e);
    }
    DbusManager m = new DbusManager(scope, address, connection, bus, timeout);
    if (bus) {
      try {
        m.call(PATH, MANAGER, "Subscribe"); // a bus client is sent the job signals it subscribed to
      } catch (SystemdException e) {
        LOG.debug("Subscribe on {}: {}", address, e.getMessage());
      }
    }
    return m;
  }

  @Override
  public Scope scope() {
    return scope;
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public String version() throws IOException {
    return String.valueOf(property(PATH, MANAGER, "Version"));
  }

  @Override
  public CgroupPath controlGroup() throws IOException {
    String cgroup = String.valueOf(property(PATH, MANAGER, "ControlGroup"));
    return cgroup.isEmpty() ? CgroupPath.root() : CgroupPath.of(cgroup);
  }

  @Override
  public Optional<UnitState> unit(String name) throws IOException {
    String path;
    try {
      path = ((DBusPath) call(PATH, MANAGER, "GetUnit", name)).getPath();
    } catch (SystemdException e) {
      if (SystemdException.NO_SUCH_UNIT.equals(e.errorName())) {
        return Optional.empty();
      }
      throw e;
    }
    String unitIface = "org.freedesktop.systemd1.Unit";
    String load = String.valueOf(property(path, unitIface, "LoadState"));
    String active = String.valueOf(property(path, unitIface, "ActiveState"));
    String sub = String.valueOf(property(path, unitIface, "SubState"));
    String cgroup = "";
    if (name.endsWith(".service")) {
      cgroup = String.valueOf(property(path, "org.freedesktop.systemd1.Service", "ControlGroup"));
    }
    return Optional.of(
        new UnitState(name, load, active, sub, cgroup.isEmpty() ? null : CgroupPath.of(cgroup)));
  }

  @Override
  public String startTransientService(String name, String mode, TransientService service)
      throws IOException {
    List<String> command = service.command();
    List<Property> properties =
        List.of(
            new Property("Description", new Variant<>(service.description())),
            new Property("Slice", new Variant<>(service.slice())),
            new Property("Type", new Variant<>("exec")),
            new Property(
                "ExecStart",
                new Variant<>(List.of(new ExecCommand(command.get(0), command, false)), "a(sasb)")),
            new Property("Delegate", new Variant<>(Boolean.TRUE)),
            new Property("CollectMode", new Variant<>("inactive-or-failed")),
            new Property("OOMPolicy", new Variant<>("continue")));
    return startTransient(name, mode, properties);
  }

  @Override
  public String startTransientScope(String name, String mode, TransientScope scope)
      throws IOException {
    List<Property> properties =
        List.of(
            new Property("Description", new Variant<>(scope.description())),
            new Property("Slice", new Variant<>(scope.slice())),
            new Property("PIDs", new Variant<>(List.of(new UInt32(scope.pid())), "au")),
            new Property("CollectMode", new Variant<>("inactive-or-failed")));
    return startTransient(name, mode, properties);
  }

  /** StartTransientUnit with {@code properties} and no auxiliary units: the new job's path. */
  private String startTransient(String name, String mode, List<Property> properties)
      throws IOException {
    return ((DBusPath)
            call(
                PATH,
                MANAGER,
                "StartTransientUnit",
                name,
                mode,
                properties,
                new ArrayList<AuxUnit>()))
        .getPath();
  }

  @Override
  public String stopUnit(String name, String mode) throws IOException {
    return ((DBusPath) call(PATH, MANAGER, "StopUnit", name, mode)).getPath();
  }

  @Override
  public void resetFailedUnit(String name) throws IOException {
    call(PATH, MANAGER, "ResetFailedUnit", name);
  }

  @Override
  public AutoCloseable onJobRemoved(Consumer<JobRemoved> listener) throws IOException {
    try {
      return connection.addSigHandler(
          Manager.JobRemoved.class,
          s -> listener.accept(new JobRemoved(s.id(), s.job(), s.unit(), s.result())));
    } catch (Exception e) {
      throw new SystemdException(
          SystemdException.DISCONNECTED,
          "cannot subscribe to JobRemoved on " + address + ": " + e.getMessage(),
          e);
    }
  }

  private Object property(String path, String iface, String property) throws SystemdException {
    Object v = call(path, PROPERTIES, "Get", iface, property);
    return v instanceof Variant<?> variant ? variant.getValue() : v;
  }

  /**
   * Sends {@code member} of {@code iface} to {@code path} with {@code args} (typed as the method of
   * that name in {@link Manager} says) and waits for the answer: its only value, or null.
   */
  private Object call(String path, String iface, String member, Object... args)
      throws SystemdException {
    Method method =
        Arrays.stream(Manager.class.getMethods())
            .filter(m -> m.getName().equals(member))
            .findFirst()
            .orElseThrow(
                () -> new IllegalArgumentException("no method " + member + " in " + Manager.class));
    Type[] types = method.getGenericParameterTypes();
    MethodCall call;
    try {
      String signature = types.length == 0 ? null : Marshalling.getDBusType(types);
      Object[] converted =
          types.length == 0
              ? new Object[0]
              : Marshalling.convertParameters(args, types, connection);
      call =
          connection
              .getMessageFactory()
              .createMethodCall(
                  null, destination, path, iface, member, (byte) 0, signature, converted);
    } catch (Exception e) {
      throw new SystemdException(
          SystemdException.INVALID_ARGS,
          "cannot build " + iface + "." + member + ": " + e.getMessage(),
          e);
    }
    if (!connection.isConnected()) {
      throw new SystemdException(
          SystemdException.DISCONNECTED, "the connection to " + address + " is closed", null);
    }
    LOG.debug("{}.{}{} on {}", iface, member, Arrays.toString(args), address);
    connection.sendMessage(call);
    Message reply = call.getReply(Math.max(1, timeout.toMillis()));
    if (reply == null) {
      throw new SystemdException(
          connection.isConnected() ? SystemdException.NO_REPLY : SystemdException.DISCONNECTED,
          iface + "." + member + " on " + address + ": no answer within " + timeout,
          null);
    }
    if (reply instanceof org.freedesktop.dbus.messages.Error error) {
      String detail;
      try {
        Object[] params = error.getParameters();
        detail =
            params == null
                ? ""
                : Arrays.stream(params).map(String::valueOf).collect(Collectors.joining(" "));
      } catch (Exception e) {
        detail = "(no message: " + e.getMessage() + ")";
      }
      throw new SystemdException(error.getName(), detail, null);
    }
    Type returned = method.getGenericReturnType();
    if (returned == void.class) {
      return null;
    }
    try {
      Object[] values =
          Marshalling.deSerializeParameters(
              reply.getParameters(), new Type[] {returned}, connection);
      return values == null || values.length == 0 ? null : values[0];
    } catch (Exception e) {
      throw new SystemdException(
          SystemdException.INVALID_ARGS,
          "cannot read the answer of "
              + iface
              + "."
              + member
              + " on "
              + address
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (IOException e) {
      LOG.debug("closing the connection to {}: {}", address, e.getMessage());
    }
  }

  @Override
  public String toString() {
    return (destination == null ? "private connection " : "bus connection ") + address;
  }
}
