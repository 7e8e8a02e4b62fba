package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Root's destroy of a delegated container removes everything below it whatever its tenant (uid
 * 64999, through setpriv) made there: sub-cgroups lmctfy never made with the tenant's own processes
 * parked in them, its ownership marker removed, a sub-cgroup frozen, files chmodded. v1: a tenant
 * moves its own process into its v1 cgroups from anywhere (on v2 only from inside its subtree, by
 * the common-ancestor rule).
 */
@Tag("kernel")
@Tag("needs-v1")
class KernelRootWinsTest {
  @Test
  void rootsDestroyOfADelegatedContainerRemovesEverythingItsTenantMadeAndKillsItsProcesses()
      throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    Process parked = null;
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      List<Hierarchy> managed =
          fs.hierarchies().stream()
              .filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
              .toList();
      api.create("/t", ContainerSpec.parse("owner: " + Tenant.UID + " owner_group: " + Tenant.UID));
      CgroupPath t = scratch.path().resolve("t");
      List<String> procs = new ArrayList<>();
      for (Hierarchy h : managed) {
        Path deeper = Path.of(h.display(t.resolve("sub").resolve("deeper"), null));
        Tenant.run("mkdir", "-p", deeper.toString());
        if (h.version() == CgroupVersion.V1) {
          procs.add(deeper.resolve("cgroup.procs").toString());
        }
        Tenant.run(
            "mkdir", Path.of(h.display(t, null)).resolve("x y").toString()); // not a container name
      }
      List<String> park =
          new ArrayList<>(
              List.of(
                  "/bin/sh",
                  "-c",
                  "for f in \"$@\"; do echo $$ 2>/dev/null > \"$f\"; done; echo parked; exec sleep 600",
                  "sh"));
      park.addAll(procs);
      parked = new ProcessBuilder(Tenant.command(park)).redirectErrorStream(true).start();
      java.io.BufferedReader out =
          new java.io.BufferedReader(new java.io.InputStreamReader(parked.getInputStream()));
      StringBuilder said = new StringBuilder();
      for (String line; (line = out.readLine()) != null && !line.equals("parked"); ) {
        said.append(line).append('\n');
      }
      assertThat(parked.isAlive()).as("the tenant parked its process: %s", said).isTrue();
      assertThat(Files.readString(Path.of("/proc/" + parked.pid() + "/cgroup")))
          .as("some hierarchy lets a tenant move itself")
          .contains(t.resolve("sub").resolve("deeper").value());

      Path anchorT = Path.of(managed.get(0).display(t, null));
      Tenant.removeXattr(anchorT, "user.lmctfy.owner");
      for (Hierarchy h : managed) {
        Path sub = Path.of(h.display(t.resolve("sub"), null));
        if (h.has("freezer")) {
          Tenant.run("/bin/sh", "-c", "echo FROZEN > " + sub.resolve("freezer.state"));
        }
        if (h.version() == CgroupVersion.V2) {
          Tenant.run("/bin/sh", "-c", "echo 1 > " + sub.resolve("cgroup.freeze"));
        }
        Tenant.run("chmod", "000", sub.resolve("cgroup.procs").toString());
        Tenant.run("chmod", "500", sub.toString());
      }

      api.destroy("/t");

      assertThat(parked.waitFor(10, TimeUnit.SECONDS))
          .as("the tenant's parked process is killed")
          .isTrue();
      for (Hierarchy h : managed) {
        assertThat(Files.exists(Path.of(h.display(t, null)))).as("%s", h.label()).isFalse();
      }
      assertThat(api.exists("/t")).isFalse();
      assertThat(api.cleanup().failures()).isEmpty();
    } finally {
      if (parked != null) {
        parked.destroyForcibly().waitFor();
      }
    }
  }
}
