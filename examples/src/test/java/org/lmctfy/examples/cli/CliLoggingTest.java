package org.lmctfy.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tool's logging level, set by its main before the first logger is made (slf4j-simple reads it
 * once per JVM, so each case is a JVM of its own): WARN and above by default, INFO with {@code
 * --verbose}, DEBUG with {@code --debug}, the user's {@code -D} over all of them.
 */
class CliLoggingTest {
  private static final String INFO =
      "INFO org.lmctfy.examples.cli.Lmctfy - container / is the cgroup ";
  private static final String DEBUG = "DEBUG org.lmctfy.examples.cli.Lmctfy - hierarchy ";

  @Test
  void byDefaultNothingBelowWarnIsLogged() throws Exception {
    assertThat(stderrOf(List.of(), "--backend", "fake", "list", "containers", "/"))
        .doesNotContain("INFO", "DEBUG")
        .contains("lmctfy: backend: in-memory fake");
  }

  @Test
  void verboseLogsInfo() throws Exception {
    assertThat(stderrOf(List.of(), "--verbose", "--backend", "fake", "list", "containers", "/"))
        .contains(INFO)
        .doesNotContain("DEBUG");
  }

  @Test
  void debugLogsDebug() throws Exception {
    assertThat(stderrOf(List.of(), "--backend", "fake", "list", "containers", "/", "--debug"))
        .contains(INFO, DEBUG);
  }

  @Test
  void aLevelTheUserGivesWins() throws Exception {
    assertThat(
            stderrOf(
                List.of("-D" + Lmctfy.LOG_LEVEL + "=info"),
                "--backend",
                "fake",
                "list",
                "containers",
                "/"))
        .contains(INFO)
        .doesNotContain("DEBUG");
  }

  /**
   * What the tool's main, in a JVM of its own with {@code jvmOptions}, prints on stderr; it must
   * exit 0.
   */
  private static String stderrOf(List<String> jvmOptions, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Lmctfy.class.getName()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(err).isZero();
    return err;
  }
}
