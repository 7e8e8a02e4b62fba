package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

class VirtualHostSpecTest {
  private static final ContainerSpec FULL =
      ContainerSpec.builder()
          .memory(MemorySpec.ofLimit(64L << 20))
          .virtualHost(
              new VirtualHostSpec(
                  "vh-1.example",
                  new VirtualHostSpec.Init(
                      List.of("/sbin/my-init", "--quiet"),
                      RunSpec.parse("stderr: '/var/log/vh.err' working_directory: '/srv'")),
                  VirtualHostSpec.Network.loopback()))
          .filesystem(
              new FilesystemSpec(
                  "/srv/vh",
                  new FilesystemSpec.Mounts(
                      List.of(
                          new FilesystemSpec.Mount("/srv/data", "/data", true, null),
                          new FilesystemSpec.Mount("/srv/logs", "var/log", null, false)))))
          .build();

  @Test
  void anEmptyVirtualHostIsPresentAndWritesBackAsLmctfysEmptyMessage() {
    ContainerSpec spec = ContainerSpec.parse("virtual_host {}");
    assertThat(spec.virtualHost()).isEqualTo(VirtualHostSpec.empty());
    assertThat(spec.toText()).isEqualTo("virtual_host {}\n");
    assertThat(spec.toJson()).isEqualTo("{\"virtual_host\":{}}");
    assertThat(ContainerSpec.parse(spec.toText())).isEqualTo(spec);
  }

  @Test
  void anEmptyNetworkIsPresentLoopbackOnly() {
    VirtualHostSpec vh = ContainerSpec.parse("virtual_host { network {} }").virtualHost();
    assertThat(vh.network()).isNotNull();
    assertThat(vh.network().isLoopbackOnly()).isTrue();
    assertThat(ContainerSpec.parse("virtual_host {}").virtualHost().network()).isNull();
  }

  @Test
  void lmctfysTextFormatReads() {
    ContainerSpec spec =
        ContainerSpec.parse(
            """
        memory { limit: 64M }
        virtual_host {
          virtual_hostname: "vh-1.example"
          init { init_argv: "/sbin/my-init" init_argv: "--quiet"
                 run_spec { stderr: "/var/log/vh.err" working_directory: "/srv" } }
          network {}
        }
        filesystem {
          rootfs: "/srv/vh"
          mounts {
            mount { source: "/srv/data" target: "/data" read_only: true }
            mount { source: "/srv/logs" target: "var/log" private: false }
          }
        }
        """);
    assertThat(spec).isEqualTo(FULL);
  }

  @Test
  void theFullSpecRoundTripsThroughTextAndJson() {
    assertThat(ContainerSpec.parse(FULL.toText())).isEqualTo(FULL);
    assertThat(ContainerSpec.parse(FULL.toJson())).isEqualTo(FULL);
    assertThat(FULL.toJson())
        .contains(
            "\"virtual_host\":{\"virtual_hostname\":\"vh-1.example\"",
            "\"init_argv\":[\"/sbin/my-init\",\"--quiet\"]",
            "\"filesystem\":{\"rootfs\":\"/srv/vh\"",
            "\"mounts\":{\"mount\":[{\"source\":\"/srv/data\",\"target\":\"/data\",\"read_only\":true}");
  }

  @Test
  void lmctfysNetworkFieldsReadAndWriteBack() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "virtual_host { network { interface: 'eth1'"
                + " connection { veth_pair { outside: 'veth0' inside: 'eth0' } bridge { name: 'br0' type: OVS } }"
                + " virtual_ip { ip: '10.0.0.2' netmask: '255.255.255.0' gateway: '10.0.0.1' mtu: 1500 ip_forward: true } } }");
    VirtualHostSpec.Network n = spec.virtualHost().network();
    assertThat(n.iface()).isEqualTo("eth1");
    assertThat(n.connection().bridge().type()).isEqualTo(VirtualHostSpec.BridgeType.OVS);
    assertThat(n.virtualIp().mtu()).isEqualTo(1500L);
    assertThat(n.isLoopbackOnly()).isFalse();
    assertThat(ContainerSpec.parse(spec.toText())).isEqualTo(spec);
  }

  @Test
  void aFilesystemWithoutAVirtualHostIsRefused() {
    assertThatThrownBy(() -> ContainerSpec.parse("filesystem { rootfs: '/srv/vh' }"))
        .isInstanceOf(LmctfyException.class)
        .hasMessageStartingWith("filesystem: needs virtual_host")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void aBadHostNameIsRefusedNamingTheField() {
    assertThatThrownBy(() -> ContainerSpec.parse("virtual_host { virtual_hostname: 'a b' }"))
        .isInstanceOf(LmctfyException.class)
        .hasMessageContaining("virtual_host.virtual_hostname")
        .hasMessageContaining("\"a b\"");
    assertThatThrownBy(() -> new VirtualHostSpec("x".repeat(65), null, null))
        .hasMessageContaining("1 to 64");
  }

  @Test
  void pathsAreCheckedNamingTheFieldWithItsIndex() {
    assertThatThrownBy(
            () -> ContainerSpec.parse("virtual_host {} filesystem { rootfs: 'relative' }"))
        .hasMessageContaining("filesystem.rootfs")
        .hasMessageContaining("absolute");
    assertThatThrownBy(
            () ->
                ContainerSpec.parse(
                    "virtual_host {} filesystem { mounts {"
                        + " mount { source: '/a' target: '/a' } mount { source: '/b' target: '../etc' } } }"))
        .hasMessageContaining("filesystem.mounts.mount[1].target")
        .hasMessageContaining("'..'");
    assertThatThrownBy(
            () ->
                ContainerSpec.parse(
                    "virtual_host {} filesystem { mounts { mount { target: '/a' } } }"))
        .hasMessageContaining("filesystem.mounts.mount[0].source");
  }

  @Test
  void anUnknownFieldIsNamedWithTheKnownOnes() {
    assertThatThrownBy(() -> ContainerSpec.parse("virtual_host { hostname: 'x' }"))
        .hasMessageContaining(
            "virtual_host.hostname: unknown field; known fields: init, network, virtual_hostname");
  }

  @Test
  void anEmptyInitArgvIsTheDefaultInit() {
    assertThat(new VirtualHostSpec.Init(null, null).initArgv()).isEmpty();
    assertThat(ContainerSpec.parse("virtual_host { init {} }").virtualHost().init().initArgv())
        .isEmpty();
    assertThatThrownBy(() -> new VirtualHostSpec.Init(List.of(""), null))
        .hasMessageContaining("init_argv[0]");
  }

  @Test
  void aRelativeTargetIsAPathFromTheRoot() {
    assertThat(new FilesystemSpec.Mount("/srv/logs", "var/log", null, null).insidePath())
        .isEqualTo("/var/log");
    assertThat(new FilesystemSpec.Mount("/srv/logs", "/var/log", null, null).insidePath())
        .isEqualTo("/var/log");
  }
}
