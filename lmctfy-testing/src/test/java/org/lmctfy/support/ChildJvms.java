package org.lmctfy.support;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child JVMs of the kernel tests: the command that runs a test class's {@code main} in a new JVM
 * that starts quickly (C1 only), and the start that sends its output, errors too, to a file.
 */
public final class ChildJvms {
  private ChildJvms() {}

  /**
   * {@code java -XX:TieredStopAtLevel=1 option -cp classPath main args...}, with this JVM's java.
   */
  public static List<String> java(String classPath, String option, Class<?> main, String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                option,
                "-cp",
                classPath,
                main.getName()));
    command.addAll(List.of(args));
    return command;
  }

  /** {@link #java} with the test's own class path. */
  public static List<String> java(String option, Class<?> main, String... args) {
    return java(System.getProperty("java.class.path"), option, main, args);
  }

  /** Starts {@code command} with its output and errors going to {@code output}. */
  public static Process start(List<String> command, Path output) throws IOException {
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(output.toFile())
        .start();
  }
}
