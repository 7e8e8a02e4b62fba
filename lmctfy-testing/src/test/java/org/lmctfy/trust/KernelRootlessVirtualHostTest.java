package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.kernel.vhost.BusyboxRoot;
import org.lmctfy.kernel.vhost.HostView;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * A rootless virtual host: an unprivileged user (uid 64999, through setpriv), in the subtree root
 * delegated to it, makes one with its own root, host name and network; it gets a user namespace in
 * which the user is root (so a mount inside works), every namespace is the init's, and destroy
 * leaves nothing. As {@link KernelRootlessTest}, the tenant's JVM lives in {@code /t/session}.
 */
@Tag("kernel")
class KernelRootlessVirtualHostTest {
  @Test
  void anUnprivilegedUserMakesAVirtualHostInItsDelegatedSubtreeAndIsRootOnlyInside()
      throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    BusyboxRoot.assumeBusybox();
    Path home =
        Files.createTempDirectory(
            Path.of("/tmp"),
            "lmctfy-tenant",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    List<String> mounts = HostView.mounts();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      Files.setAttribute(home, "unix:uid", Tenant.UID);
      Files.setAttribute(home, "unix:gid", Tenant.UID);
      Path rootfs = BusyboxRoot.make(home);
      Path output = home.resolve("tenant.out");
      api.create("/t", ContainerSpec.parse("owner: " + Tenant.UID + " owner_group: " + Tenant.UID));
      api.create("/t/session", ContainerSpec.empty());

      Process tenant =
          TenantJvm.start(
              VirtualHostTenantJvm.class,
              home,
              output,
              scratch.path().resolve("t").value(),
              rootfs.toString());
      List<String> lines = TenantJvm.enterAndRun(tenant, output, api.get("/t/session"));
      assertThat(lines)
          .as("%s", lines)
          .contains(
              "exit 0",
              "inside 0",
              "inside rootless",
              "inside pid=2",
              "inside mounted",
              "inside 1",
              "outside Uid: 64999 64999 64999 64999",
              "ns user own=true init's=true",
              "ns pid own=true init's=true",
              "ns mnt own=true init's=true",
              "ns uts own=true init's=true",
              "ns net own=true init's=true",
              "detect /vh",
              "destroyed false init-gone true",
              "done");
      assertThat(lines).anySatisfy(l -> assertThat(l).matches("outside NSpid: [0-9]+ [0-9]+"));
      assertThat(HostView.mounts()).isEqualTo(mounts);
      assertThat(HostView.processesMentioning(rootfs.toString())).isEmpty();
      api.destroy("/t");
    } finally {
      BusyboxRoot.delete(home);
    }
  }
}
