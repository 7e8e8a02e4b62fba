package org.lmctfy.internal.kernel.launch;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * What a start would fail on once its launcher is placed, found on this machine before anything
 * starts: an {@code argv[0]} that is not an executable file (searched on the PATH the process will
 * have, as {@code sh} does), a missing working directory, an unreadable stdin file, an output file
 * whose directory is missing. The launcher and the virtual hosts check here; nothing above the SPI
 * looks at the machine for a command.
 */
public final class LaunchChecks {
  /** What sh searches when the environment has no PATH. */
  static final String DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  private LaunchChecks() {}

  /**
   * Checks the program, the working directory and the files of the redirections of {@code pb}.
   *
   * @throws LmctfyException INVALID_ARGUMENT naming what is wrong
   */
  static void check(ProcessBuilder pb) {
    Path dir =
        pb.directory() == null ? Path.of(System.getProperty("user.dir")) : pb.directory().toPath();
    if (!Files.isDirectory(dir)) {
      throw invalid("working_directory " + dir + " is not a directory");
    }
    requireExecutable(pb.command().get(0), dir, pb.environment());
    checkRedirections(pb, dir);
  }

  /**
   * Checks the files of {@code pb}'s redirections, relative ones from {@code dir}: stdin a readable
   * file, stdout and stderr in an existing directory.
   *
   * @throws LmctfyException INVALID_ARGUMENT naming the file
   */
  public static void checkRedirections(ProcessBuilder pb, Path dir) {
    File in = pb.redirectInput().file();
    if (in != null
        && (!Files.isReadable(dir.resolve(in.toPath()))
            || Files.isDirectory(dir.resolve(in.toPath())))) {
      throw invalid("stdin " + in + " is not a readable file");
    }
    for (ProcessBuilder.Redirect r : List.of(pb.redirectOutput(), pb.redirectError())) {
      if (r.type() == ProcessBuilder.Redirect.Type.APPEND) {
        Path out = dir.resolve(r.file().toPath());
        Path parent = out.getParent();
        if (parent == null || !Files.isDirectory(parent) || Files.isDirectory(out)) {
          throw invalid(
              "cannot append to " + out + ": its directory is missing or it is a directory");
        }
      }
    }
  }

  /**
   * As sh finds a command: a name with a slash is a path (from the working directory), else PATH.
   */
  private static void requireExecutable(String program, Path dir, Map<String, String> env) {
    if (program.contains("/")) {
      if (!isExecutableFile(dir.resolve(program))) {
        throw invalid("argv[0] " + program + " is not an executable file");
      }
      return;
    }
    String path = env.getOrDefault("PATH", DEFAULT_PATH);
    if (find(program, dir, path)
        == null) { // the PATH's value may be long and private: its size only
      throw invalid(
          "argv[0] "
              + program
              + " is not an executable file in any of the "
              + path.split(":", -1).length
              + " directories of "
              + (env.containsKey("PATH")
                  ? "the program's PATH"
                  : "sh's default PATH (the program's environment has none)")
              + "; give its path, or a PATH that holds it");
    }
  }

  /** The first executable {@code program} on {@code path} (searched from {@code dir}), or null. */
  private static Path find(String program, Path dir, String path) {
    for (String d : path.split(":", -1)) {
      Path p = dir.resolve(d.isEmpty() ? "." : d).resolve(program);
      if (isExecutableFile(p)) {
        return p;
      }
    }
    return null;
  }

  /**
   * {@code program} (a name without a slash) as sh finds it on {@code path} from {@code directory}
   * (null: the JVM's); the name itself if it is not there (the start then fails as sh's would).
   */
  static String resolve(String program, String path, File directory) {
    Path found =
        find(
            program,
            directory == null
                ? Path.of(System.getProperty("user.dir"))
                : directory.toPath().toAbsolutePath(),
            path);
    return found == null ? program : found.toString();
  }

  private static boolean isExecutableFile(Path p) {
    return Files.isRegularFile(p) && Files.isExecutable(p);
  }

  private static LmctfyException invalid(String message) {
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
