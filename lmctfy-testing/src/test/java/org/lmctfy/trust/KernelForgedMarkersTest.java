package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.CleanupReport;
import org.lmctfy.ListPolicy;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * Markers a tenant writes on the directories delegated to it (it may write user xattrs there, as
 * here through {@code setpriv} as uid 64999) never steer root's API: root's containers stay found
 * and alive, root's spec of the tenant's container stays as root made it, and a tenant that fills
 * its directory with xattrs cannot stop root's destroy.
 */
@Tag("kernel")
@Tag("needs-controllers")
class KernelForgedMarkersTest extends ApiOnScratch {
  private Process sleeper;

  KernelForgedMarkersTest() {
    super(ContractBackend.host());
  }

  @AfterEach
  void stopTheSleeper() throws InterruptedException {
    if (sleeper != null) {
      sleeper.destroyForcibly().waitFor();
    }
  }

  private List<Hierarchy> managed() {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
        .toList();
  }

  /** The directory of container {@code name} in the hierarchy that carries the markers. */
  private Path anchorDir(String name) {
    return Path.of(managed().get(0).display(scratch.path().resolve(name.substring(1)), null));
  }

  private void delegateT() {
    api.create("/t", ContainerSpec.parse("owner: " + Tenant.UID + " owner_group: " + Tenant.UID));
  }

  @Test
  void aForgedInProgressMarkerNeitherHidesRootsContainerNorGetsItKilledByCleanup()
      throws Exception {
    delegateT();
    api.create("/t/r", ContainerSpec.parse(""));
    sleeper = new ProcessBuilder("sleep", "600").start();
    api.get("/t/r").enter(List.of(sleeper.pid()));

    Tenant.setXattr(anchorDir("/t"), "user.lmctfy.op.r", "destroying");
    Tenant.setXattr(anchorDir("/t"), "user.lmctfy.op.ghost", "creating");

    assertThat(api.exists("/t/r")).isTrue();
    assertThat(api.get("/t").listSubcontainers(ListPolicy.SELF)).containsExactly("/t/r");
    CleanupReport report = api.cleanup();
    assertThat(report.removed()).isEmpty();
    assertThat(report.failures())
        .anySatisfy(
            f -> assertThat(f).contains("op.r=destroying", "uid " + Tenant.UID, "not trusted"));
    assertThat(report.failures())
        .anySatisfy(f -> assertThat(f).contains("op.ghost=creating", "not trusted"));
    assertThat(sleeper.isAlive()).isTrue();
    assertThat(api.get("/t/r").listProcesses(ListPolicy.SELF)).containsExactly(sleeper.pid());

    api.destroy("/t");
    assertThat(sleeper.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(api.exists("/t")).isFalse();
  }

  @Test
  void aRewrittenOrRemovedOwnerMarkerDoesNotChangeRootsSpecOfTheTenantsContainer()
      throws Exception {
    api.create("/t", ContainerSpec.parse("memory { limit: 104857600 } owner: " + Tenant.UID));
    ContainerSpec before = api.get("/t").spec();
    assertThat(before.owner()).isEqualTo((long) Tenant.UID);

    Tenant.setXattr(anchorDir("/t"), "user.lmctfy.owner", "lmctfy");
    assertThat(api.get("/t").spec()).isEqualTo(before);
    Tenant.removeXattr(anchorDir("/t"), "user.lmctfy.owner");
    assertThat(api.get("/t").spec()).isEqualTo(before);
    assertThat(api.exists("/t")).isTrue();

    api.get("/t")
        .update(ContainerSpec.parse("memory { limit: 209715200 }"), org.lmctfy.UpdatePolicy.DIFF);
    assertThat(api.get("/t").spec().memory().limit()).isEqualTo(209715200L);
    assertThat(api.get("/t").spec().owner()).isEqualTo((long) Tenant.UID);
  }

  @Test
  void aTenantThatFillsItsDirectoryWithXattrsCannotStopRootsDestroy() throws Exception {
    delegateT();
    api.create("/t/c", ContainerSpec.parse(""));
    String out =
        Tenant.python(
            """
        import os, sys
        i = 0
        while True:
            try:
                os.setxattr(sys.argv[1], 'user.fill%06d' % i, b'x' * 255)
            except OSError as e:
                print(os.strerror(e.errno)); break
            i += 1
        """,
            anchorDir("/t").toString());
    assertThat(out).as("the tenant filled the directory until the kernel refused").isNotBlank();

    api.destroy("/t");
    assertThat(api.exists("/t")).isFalse();
    for (Hierarchy h : managed()) {
      assertThat(Files.exists(Path.of(h.display(scratch.path().resolve("t"), null))))
          .as("%s", h)
          .isFalse();
    }
  }
}
