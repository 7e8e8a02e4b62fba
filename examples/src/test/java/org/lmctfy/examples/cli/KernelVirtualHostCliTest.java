package org.lmctfy.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.examples.cli.Transcript.ok;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The virtual host transcript of docs/virtual-hosts.md through the CLI's main entry on this
 * machine's kernel, under a scratch root, with a root made from busybox-static: create prints the
 * init's pid, run joins the virtual host with its program's status, enter of a process outside is
 * refused, and a destroy without -f counts the init as the virtual host's own and leaves nothing.
 */
@Tag("kernel")
class KernelVirtualHostCliTest {
  @Test
  void createRunEnterAndDestroyAVirtualHostAsTheReadmeShows() throws Exception {
    Path rootfs = org.lmctfy.examples.VirtualHostTest.busyboxRoot();
    try (ScratchCgroups scratch = ScratchCgroups.onHost()) {
      Cli cli = Cli.real("--root", scratch.path().toString());

      Cli.Result created =
          ok(
              cli.run(
                  "create",
                  "/vh",
                  "virtual_host { virtual_hostname: \"vh\" network {} }"
                      + " filesystem { rootfs: \""
                      + rootfs
                      + "\" }"));
      assertThat(created.out()).matches("init_pid=\"[0-9]+\"\n");
      Cli.Result ran =
          ok(cli.run("run", "/vh", "sh", "-c", "hostname; echo $$; echo /proc/[0-9]*"));
      assertThat(ran.out())
          .isEqualTo("vh\n2\n/proc/1 /proc/2\n"); // the init and the shell: no host process
      assertThat(cli.run("run", "/vh", "sh", "-c", "exit 5").code()).isEqualTo(5);
      Cli.Result entered = cli.run("enter", "/vh");
      assertThat(entered.code()).as(entered.toString()).isEqualTo(9);
      assertThat(entered.err())
          .contains("is not inside the virtual host /vh", "run the program in /vh instead");
      ok(cli.run("destroy", "/vh"));

      Hierarchy h =
          scratch.hierarchies().stream()
              .filter(x -> x.version() == CgroupVersion.V2 || x.has("memory"))
              .findFirst()
              .orElseThrow();
      assertThat(scratch.fs().children(h, scratch.path())).isEmpty();
    } finally {
      org.lmctfy.examples.VirtualHostTest.delete(rootfs);
    }
  }
}
