package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * A second JVM as an unprivileged user (uid 64999, no passwd entry, through setpriv) runs a
 * container's whole lifecycle below the container root delegated to it, with its locks in its own
 * runtime directory; outside its subtree every call is PERMISSION_DENIED naming the path, and
 * nothing there changes. The tenant's JVM is moved by root into its delegated subtree, in {@code
 * /t/session}, as a systemd user session lives in its delegated subtree (on v2 a process is moved
 * only by one who may write the common ancestor's cgroup.procs, and /t itself may hold no process
 * once the tenant enables controllers for its children).
 */
@Tag("kernel")
@Tag("needs-controllers")
class KernelRootlessTest {
  @Test
  void anUnprivilegedUserRunsTheWholeLifecycleBelowItsDelegatedContainerAndNothingOutside()
      throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    // in /tmp, which the tenant can reach wherever java.io.tmpdir or the build lives
    Path home =
        Files.createTempDirectory(
            Path.of("/tmp"),
            "lmctfy-tenant",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      Files.setAttribute(home, "unix:uid", Tenant.UID);
      Files.setAttribute(home, "unix:gid", Tenant.UID);
      Path output = home.resolve("tenant.out");
      api.create(
          "/t",
          ContainerSpec.parse(
              "memory { limit: 536870912 } owner: " + Tenant.UID + " owner_group: " + Tenant.UID));
      api.create(
          "/t/session",
          ContainerSpec.empty()); // the tenant's JVM lives here: v2 lets /t hold no process
      List<String> before = tree(fs, scratch);

      Process tenant =
          TenantJvm.start(
              home, output, scratch.path().resolve("t").value(), scratch.path().value());
      // its outsider child is started, outside, before it is moved
      List<String> lines = TenantJvm.enterAndRun(tenant, output, api.get("/t/session"));
      assertThat(lines)
          .anySatisfy(
              l ->
                  assertThat(l)
                      .startsWith("refused enter PERMISSION_DENIED unmoved=true")
                      .contains("common ancestor", "cgroup.procs", "nothing was moved"));
      assertThat(lines)
          .containsSubsequence(
              "ok create",
              "ok update 209715200",
              "ok run 7",
              "ok stats",
              "ok create-below [/a/b]",
              "ok pause-resume",
              "ok destroy false",
              "done");
      for (String call : List.of("create", "destroy", "update")) {
        assertThat(lines)
            .anySatisfy(
                l ->
                    assertThat(l)
                        .startsWith("refused " + call + " PERMISSION_DENIED")
                        .contains(scratch.path().value()));
      }
      assertThat(tree(fs, scratch))
          .as("nothing changed outside, nothing left inside")
          .isEqualTo(before);
      assertThat(Files.isDirectory(home.resolve("lmctfy/locks")))
          .as("the tenant's own lock directory")
          .isTrue();
      api.destroy("/t");
    } finally {
      try (Stream<Path> all = Files.walk(home)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /** Every cgroup at or below the scratch parent, in every hierarchy. */
  private static List<String> tree(CgroupFs fs, ScratchCgroups scratch) throws Exception {
    List<String> out = new java.util.ArrayList<>();
    for (Hierarchy h : fs.hierarchies()) {
      try (Stream<Path> dirs = Files.walk(Path.of(h.display(scratch.path(), null)))) {
        dirs.filter(Files::isDirectory).forEach(d -> out.add(h.label() + ":" + d));
      }
    }
    out.sort(null);
    return out;
  }
}
