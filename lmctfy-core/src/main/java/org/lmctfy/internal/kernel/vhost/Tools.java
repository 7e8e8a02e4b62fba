package org.lmctfy.internal.kernel.vhost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * The distribution's programs a virtual host is made with, found by absolute path in the system's
 * directories (never through a caller's PATH), vetted once per JVM: a regular file owned by root
 * that neither its group nor others may write (whoever could change it would run code in every
 * virtual host), at a version that has every option the library passes. A missing or unfit tool is
 * FAILED_PRECONDITION naming its Debian package.
 */
final class Tools {
  /** One program: its name, the package that has it, the least version, and how to ask for it. */
  enum Tool {
    /** bubblewrap: every option used is in 0.4.0 (Debian 11); tested with 0.8.0 (Debian 12). */
    BWRAP("bwrap", "bubblewrap", "0.4.0", "--version", "bubblewrap ([0-9.]+)"),
    /** util-linux's nsenter: --preserve-credentials came in 2.28; tested with 2.38.1. */
    NSENTER("nsenter", "util-linux", "2.28", "--version", "util-linux ([0-9.]+)"),
    /** util-linux's setsid: any version. */
    SETSID("setsid", "util-linux", null, null, null),
    /** catatonit's pause mode (-P) came in 0.1.7 (Debian 12). */
    CATATONIT("catatonit", "catatonit", "0.1.7", "--version", "version ([0-9.]+)");

    final String program;
    final String pkg;
    final String least;
    final String versionFlag;
    final Pattern version;

    Tool(String program, String pkg, String least, String versionFlag, String version) {
      this.program = program;
      this.pkg = pkg;
      this.least = least;
      this.versionFlag = versionFlag;
      this.version = version == null ? null : Pattern.compile(version);
    }
  }

  private static final List<String> DIRS =
      List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin");
  private static final Map<Tool, Path> FOUND = new ConcurrentHashMap<>();

  private Tools() {}

  /**
   * The tool's absolute path, vetted.
   *
   * @throws LmctfyException FAILED_PRECONDITION naming the package, the path and what is wrong
   */
  static Path path(Tool tool) {
    Path known = FOUND.get(tool);
    if (known != null) {
      return known;
    }
    Path found = find(tool, DIRS);
    FOUND.put(tool, found);
    return found;
  }

  /** {@link #path(Tool)} in {@code dirs}, not remembered. */
  static Path find(Tool tool, List<String> dirs) {
    Path found = null;
    for (String d : dirs) {
      Path p = Path.of(d, tool.program);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        found = p;
        break;
      }
    }
    if (found == null) {
      throw missing(tool, "no " + tool.program + " in " + String.join(", ", dirs));
    }
    vet(tool, found);
    if (tool.least != null) {
      String v = version(tool, found);
      if (compare(v, tool.least) < 0) {
        throw missing(
            tool, found + " is version " + v + "; lmctfy needs " + tool.least + " or later");
      }
    }
    return found;
  }

  private static void vet(Tool tool, Path p) {
    try {
      Path real = p.toRealPath();
      int uid = (Integer) Files.getAttribute(real, "unix:uid");
      int mode = (Integer) Files.getAttribute(real, "unix:mode");
      if (uid != 0 || (mode & 022) != 0) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            "virtual hosts: refusing "
                + real
                + " ("
                + tool.program
                + "): it must belong to root and be writable by root alone (uid "
                + uid
                + ", mode "
                + Integer.toOctalString(mode & 07777)
                + "); reinstall the package "
                + tool.pkg);
      }
    } catch (IOException e) {
      throw missing(tool, "cannot read " + p + ": " + e);
    }
  }

  private static String version(Tool tool, Path p) {
    String out;
    try {
      Process v =
          new ProcessBuilder(p.toString(), tool.versionFlag)
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
      out = new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!v.waitFor(10, TimeUnit.SECONDS)) {
        v.destroyForcibly();
      }
    } catch (IOException e) {
      throw missing(tool, "cannot run " + p + " " + tool.versionFlag + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LmctfyException(
          ErrorCode.CANCELLED, "interrupted while asking " + p + " for its version", e);
    }
    Matcher m = tool.version.matcher(out);
    if (!m.find()) {
      throw missing(tool, p + " " + tool.versionFlag + " printed no version: " + out.strip());
    }
    return m.group(1);
  }

  /** Compares dotted versions numerically, a missing part being 0. */
  static int compare(String a, String b) {
    String[] x = a.split("\\.");
    String[] y = b.split("\\.");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int c =
          Integer.compare(
              i < x.length && !x[i].isEmpty() ? Integer.parseInt(x[i]) : 0,
              i < y.length && !y[i].isEmpty() ? Integer.parseInt(y[i]) : 0);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private static LmctfyException missing(Tool tool, String why) {
    return new LmctfyException(
        ErrorCode.FAILED_PRECONDITION,
        "virtual hosts need "
            + tool.program
            + " from the package "
            + tool.pkg
            + (tool.least == null ? "" : " (" + tool.least + " or later)")
            + ": "
            + why
            + "; install it (apt-get install "
            + tool.pkg
            + ")");
  }
}
