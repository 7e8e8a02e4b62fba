package org.lmctfy.systemd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmctfy.systemd.DbusSystemdConnector.Address;
import org.lmctfy.systemdbus.SystemdException;
import org.lmctfy.systemdbus.SystemdManager.Scope;

/** Where the connector looks for a manager, in which order, and what it says when none answers. */
class DbusSystemdConnectorTest {
  @Test
  void rootTriesPid1sPrivateSocketThenTheSystemBus() {
    assertThat(new DbusSystemdConnector(Map.of(), 0).addresses(Scope.SYSTEM))
        .containsExactly(
            new Address("unix:path=/run/systemd/private", false),
            new Address("unix:path=/run/dbus/system_bus_socket", true));
  }

  @Test
  void aUserAskingPid1HasOnlyTheSystemBusWhichItsEnvironmentMayName() {
    assertThat(
            new DbusSystemdConnector(Map.of("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/x/bus"), 1000)
                .addresses(Scope.SYSTEM))
        .containsExactly(new Address("unix:path=/x/bus", true));
  }

  @Test
  void aUserTriesItsManagersPrivateSocketThenTheSessionBusThenTheRuntimeDirectorysBus() {
    Map<String, String> env =
        Map.of(
            "XDG_RUNTIME_DIR",
            "/run/user/1000",
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/run/user/1000/bus,guid=abc");
    assertThat(new DbusSystemdConnector(env, 1000).addresses(Scope.USER))
        .containsExactly(
            new Address("unix:path=/run/user/1000/systemd/private", false),
            new Address("unix:path=/run/user/1000/bus,guid=abc", true),
            new Address("unix:path=/run/user/1000/bus", true));
  }

  @Test
  void withoutXdgRuntimeDirAsAfterSuTheUsersRuntimeDirectoryIsRunUserUid() {
    assertThat(new DbusSystemdConnector(Map.of(), 1000).addresses(Scope.USER))
        .containsExactly(
            new Address("unix:path=/run/user/1000/systemd/private", false),
            new Address("unix:path=/run/user/1000/bus", true));
  }

  @Test
  void whenNoSocketIsThereItIsNoServerNamingEveryAddressTried(@TempDir Path runtime) {
    DbusSystemdConnector connector =
        new DbusSystemdConnector(Map.of("XDG_RUNTIME_DIR", runtime.toString()), 1000);
    assertThatThrownBy(() -> connector.connect(Scope.USER, Duration.ofSeconds(2)))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> {
              assertThat(e.errorName()).isEqualTo(SystemdException.NO_SERVER);
              assertThat(e.getMessage())
                  .contains(
                      runtime + "/systemd/private (no such socket)",
                      runtime + "/bus (no such socket)");
            });
    assertThat(runtime).isEmptyDirectory();
  }

  @Test
  void aSocketFileThatNobodyListensOnIsNoServerToo(@TempDir Path runtime) throws Exception {
    Files.createDirectories(runtime.resolve("systemd"));
    Files.createFile(
        runtime.resolve("systemd/private")); // a file where a socket should be: connect fails
    DbusSystemdConnector connector =
        new DbusSystemdConnector(Map.of("XDG_RUNTIME_DIR", runtime.toString()), 1000);
    assertThatThrownBy(() -> connector.connect(Scope.USER, Duration.ofSeconds(5)))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> {
              assertThat(e.errorName()).isEqualTo(SystemdException.NO_SERVER);
              assertThat(e.getMessage()).contains(runtime + "/systemd/private (");
            });
  }

  @Test
  void theSocketOfAnAddressIsItsPathBeforeAnyComma() {
    assertThat(DbusSystemdConnector.socketPath("unix:path=/run/user/1000/bus,guid=abc"))
        .isEqualTo(Path.of("/run/user/1000/bus"));
    assertThat(DbusSystemdConnector.socketPath("tcp:host=localhost,port=1")).isNull();
  }
}
