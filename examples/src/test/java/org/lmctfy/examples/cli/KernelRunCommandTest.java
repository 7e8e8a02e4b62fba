package org.lmctfy.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.ScratchCgroups;

/**
 * {@code lmctfy run} and {@code --root} on this machine's kernel, under a scratch root.
 */
@Tag("kernel")
class KernelRunCommandTest {
  @Test
  void aProgramNotOnPathIsNamedWithTheNumberOfDirectoriesSearchedNotThePath() throws Exception {
    try (ScratchCgroups scratch = ScratchCgroups.onHost()) {
      Cli.Result r = Cli.real("--root", scratch.path().toString()).run("run", "/", "lmctfy-no-such-program");
      String path = System.getenv("PATH");
      assertThat(r.code()).as(r.toString()).isEqualTo(3);
      assertThat(r.err()).isEqualTo("Command exited with error message: 3: argv[0] lmctfy-no-such-program is not an "
          + "executable file in any of the " + path.split(":", -1).length + " directories of the program's PATH; give "
          + "its path, or a PATH that holds it\n").doesNotContain(path);
      assertThat(processesIn(scratch)).isEmpty();
    }
  }

  @Test
  void aRootThatIsNotThereIsNotFound() throws Exception {
    try (ScratchCgroups scratch = ScratchCgroups.onHost()) {
      String nope = scratch.path().resolve("nope").toString();
      Cli.Result r = Cli.real("--root", nope).run("list", "containers", "/");
      assertThat(r.code()).as(r.toString()).isEqualTo(5);
      assertThat(r.out()).isEmpty();
      assertThat(r.err()).startsWith("Command exited with error message: 5: --root " + nope + ": there is no cgroup "
          + nope + " (in none of the ");
    }
  }

  /** The pids in the scratch cgroup of a hierarchy that holds containers' processes. */
  private static List<String> processesIn(ScratchCgroups scratch) throws IOException {
    Hierarchy h = scratch.hierarchies().stream()
        .filter(x -> x.version() == CgroupVersion.V2 || x.has("pids") || x.has("memory")).findFirst().orElseThrow();
    return scratch.fs().read(h, scratch.path(), "cgroup.procs").lines().toList();
  }
}
