package org.lmctfy.examples.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A floor program in C, compiled with the system's {@code cc} into a temporary directory removed
 * when the JVM exits.
 */
final class CFloor {
  /** Why a benchmark cannot run: printed as its row, the benchmark goes on with the next. */
  static final class Unavailable extends Exception {
    Unavailable(String why) {
      super(why);
    }
  }

  private CFloor() {}

  /**
   * The compiled program ({@code cc -O2 -pthread}); Unavailable with a clear message where there is
   * no {@code cc}.
   */
  static Path compile(String name, String source)
      throws IOException, InterruptedException, Unavailable {
    Path dir = Files.createTempDirectory("lmctfy-bench-" + name);
    Path program = dir.resolve(name);
    Path c = dir.resolve(name + ".c");
    for (Path p : new Path[] {dir, program, c}) {
      p.toFile().deleteOnExit(); // in the reverse order: the files, then the directory
    }
    Files.writeString(c, source);
    Process cc;
    try {
      cc =
          new ProcessBuilder("cc", "-O2", "-pthread", "-o", program.toString(), c.toString())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new Unavailable(
          "no C compiler (cc, e.g. Debian's gcc) for the floor: " + e.getMessage());
    }
    String out = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (cc.waitFor() != 0) {
      throw new IOException("cc failed on " + c + ": " + out);
    }
    return program;
  }
}
