package org.lmctfy.examples.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The archive of the tool's start-up: the classes its commands load, parsed and verified once, so
 * that a command maps them instead of loading them from the jar. {@code ARCHIVE.jsa} is a class
 * data sharing archive (AppCDS, any Java from 17 on); {@code ARCHIVE.aot} an ahead-of-time cache
 * (Java 25 and later: JEP 483, made in one step by JEP 514's {@code -XX:AOTCacheOutput}), which
 * also holds the classes linked and the start-up's profile, and starts a command in about two
 * thirds of the time. Either is tied to the JVM that made it and to the jar's absolute path, size
 * and time, so the build makes a {@code .jsa} beside {@code target/lmctfy.jar} for {@code
 * examples/lmctfy}, and the distribution's {@code bin/lmctfy} makes its own at its first run, in
 * the user's cache: a {@code .aot} where its JVM is 25 or later, else a {@code .jsa}.
 *
 * <pre>
 * java -cp lmctfy.jar org.lmctfy.examples.cli.ClassArchive ARCHIVE.jsa|ARCHIVE.aot [JAR]   # for JAR (default: this one)
 * </pre>
 *
 * <p>Without arguments it is the training run: common commands on the fake (and read-only ones on
 * the host), their output discarded.
 */
public final class ClassArchive {
  /** The training: what the commands of a session load (the fake starts empty at every one). */
  private static final List<String[]> TRAINING =
      List.of(
          new String[] {"--help"},
          new String[] {"help", "create"},
          new String[] {"--version"},
          new String[] {
            "--backend", "fake", "create", "/job", "cpu { limit: 500 } memory { limit: 104857600 }"
          },
          new String[] {
            "--backend", "fake", "create", "/job", "{\"memory\": {\"limit\": 104857600}}"
          },
          new String[] {"--backend", "fake", "list", "containers", "-r", "/"},
          new String[] {"--backend", "fake", "--json", "spec", "/"},
          new String[] {"--backend", "fake", "stats", "summary", "/"},
          new String[] {"--backend", "fake", "destroy", "/job"},
          new String[] {"--backend", "fake", "lsit"},
          new String[] {
            "list", "containers", "/"
          }, // the host, read-only (refused without root: the refusal's classes)
          new String[] {"detect"});

  private ClassArchive() {}

  /**
   * {@code ARCHIVE [JAR]}: makes the archive for {@code JAR} (by default the jar this class came
   * from) by a training run in a child JVM of this one's Java; without arguments: the training run.
   *
   * @param args the archive's path and the jar's, or nothing
   * @throws Exception if the child JVM cannot be started
   */
  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      train();
      return;
    }
    Path jar =
        args.length > 1
            ? Path.of(args[1]).toRealPath()
            : Path.of(
                ClassArchive.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path archive = Path.of(args[0]).toAbsolutePath();
    boolean aot = archive.toString().endsWith(".aot");
    if (aot && Runtime.version().feature() < 25) {
      System.err.println(
          "lmctfy: an ahead-of-time cache ("
              + archive
              + ") needs Java 25 or later, not "
              + Runtime.version()
              + "; make a .jsa instead");
      System.exit(2);
    }
    Files.deleteIfExists(archive);
    // the same options as the launchers': an archive made under others may not be used
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                aot ? "-XX:AOTCacheOutput=" + archive : "-XX:ArchiveClassesAtExit=" + archive,
                aot ? "-Xlog:aot*=off" : "-Xlog:cds*=off",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-XX:-UsePerfData",
                "-cp",
                jar.toString(),
                ClassArchive.class.getName())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0
        || !Files.isRegularFile(archive)) { // an optimisation: the build goes on without it
      System.err.println(
          "lmctfy: no class data sharing archive "
              + archive
              + ": the training run failed ("
              + p.exitValue()
              + "): "
              + out);
      Files.deleteIfExists(archive);
    }
  }

  private static void train() {
    PrintStream nowhere =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    for (String[] command : TRAINING) {
      Lmctfy.run(command, InputStream.nullInputStream(), nowhere, nowhere, Backend::open);
    }
  }
}
