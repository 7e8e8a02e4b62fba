package org.lmctfy.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/**
 * lmctfy's issue #37 sequence through the CLI, as in docs/cli.md: a failed create leaves nothing,
 * so destroy says NOT_FOUND, the create can be retried, and the container works and goes away. Runs
 * on any backend; returns the pids {@code run -n} started so the caller can make sure they end.
 */
final class Transcript {
  static final String PARENT_SPEC = "cpu { limit: 1000 } memory { limit: 1000000000 }";

  /** memory plus swap below memory: refused before anything is touched. */
  static final String BAD_SPEC =
      "cpu { limit: 1000 } memory { limit: 100000000 swap_limit: 50000000 }";

  static final String GOOD_SPEC = "cpu { limit: 500 } memory { limit: 100000000 }";

  private Transcript() {}

  static void run(Cli cli, List<Long> started) {
    ok(cli.run("create", "/test", PARENT_SPEC));

    Cli.Result bad = cli.run("create", "/test/abhishek", BAD_SPEC);
    assertThat(bad.code()).as(bad.toString()).isEqualTo(3);
    assertThat(bad.err())
        .startsWith("Command exited with error message: 3: ")
        .contains("swap_limit");

    Cli.Result nothingLeft = cli.run("destroy", "-f", "/test/abhishek");
    assertThat(nothingLeft.code()).as(nothingLeft.toString()).isEqualTo(5);
    assertThat(nothingLeft.err())
        .startsWith("Command exited with error message: 5: ")
        .contains("/test/abhishek");

    ok(cli.run("create", "/test/abhishek", GOOD_SPEC));
    assertThat(ok(cli.run("stats", "summary", "/test/abhishek")).out())
        .contains("cpu {", "memory {", "usage:");
    assertThat(ok(cli.run("spec", "/test/abhishek")).out()).contains("cpu {", "memory {", "limit:");

    Cli.Result run = ok(cli.run("run", "-n", "/test/abhishek", "sleep", "100"));
    assertThat(run.out()).matches("pid=\"\\d+\"\n");
    long pid = Long.parseLong(run.out().replaceAll("\\D", ""));
    started.add(pid);
    assertThat(ok(cli.run("list", "pids", "/test/abhishek")).out())
        .isEqualTo("pid=\"" + pid + "\"\n");

    ok(cli.run("pause", "/test/abhishek"));
    ok(cli.run("resume", "/test/abhishek"));
    ok(cli.run("destroy", "-f", "/test/abhishek"));
    ok(cli.run("destroy", "/test"));
    assertThat(ok(cli.run("list", "containers", "-r", "/")).out()).isEmpty();
  }

  static Cli.Result ok(Cli.Result r) {
    assertThat(r.code()).as(r.toString()).isZero();
    return r;
  }

  static List<Long> pids() {
    return new ArrayList<>();
  }
}
