package org.lmctfy.internal.kernel.vhost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Paths as a virtual host sees them: resolved below a root directory of the host (a rootfs, the
 * host's {@code /}, or a running init's {@code /proc/<pid>/root}) the way the kernel resolves them
 * for a process whose root that is: {@code ..} stops at the root and a symbolic link's absolute
 * target starts again at the root, not at the host's {@code /}. Used to check, before anything
 * starts, what an init or a joining process would fail on once inside. Stateless.
 */
final class InsidePaths {
  /** What glibc's execvp searches when the environment has no PATH (confstr _CS_PATH). */
  static final String EXECVP_PATH = "/bin:/usr/bin";

  private static final int MAX_LINKS = 40; // the kernel's ELOOP limit

  private InsidePaths() {}

  /**
   * {@code inside} (absolute, or relative to {@code dir}, itself absolute inside) as an absolute
   * path inside, with every symbolic link followed; null if a component does not exist or links
   * loop.
   */
  static String resolve(Path root, String dir, String inside) throws IOException {
    Deque<String> todo = new ArrayDeque<>();
    push(todo, inside.startsWith("/") ? inside : dir + "/" + inside);
    List<String> done = new ArrayList<>();
    int links = 0;
    while (!todo.isEmpty()) {
      String c = todo.pop();
      if (c.isEmpty() || c.equals(".")) {
        continue;
      }
      if (c.equals("..")) {
        if (!done.isEmpty()) {
          done.remove(done.size() - 1);
        }
        continue;
      }
      done.add(c);
      Path host = host(root, done);
      if (Files.isSymbolicLink(host)) {
        if (++links > MAX_LINKS) {
          return null;
        }
        String target = Files.readSymbolicLink(host).toString();
        done.remove(done.size() - 1);
        if (target.startsWith("/")) {
          done.clear();
        }
        push(todo, target);
      } else if (!Files.exists(host, LinkOption.NOFOLLOW_LINKS)) {
        return null;
      }
    }
    return "/" + String.join("/", done);
  }

  /** The host path of the inside path {@code inside} (already resolved) below {@code root}. */
  static Path host(Path root, String inside) {
    Path p = root;
    for (String c : inside.split("/")) {
      if (!c.isEmpty()) {
        p = p.resolve(c);
      }
    }
    return p;
  }

  private static Path host(Path root, List<String> components) {
    Path p = root;
    for (String c : components) {
      p = p.resolve(c);
    }
    return p;
  }

  /** Pushes the components of {@code path} so that the first pops first. */
  private static void push(Deque<String> todo, String path) {
    String[] parts = path.split("/");
    for (int i = parts.length - 1; i >= 0; i--) {
      todo.push(parts[i]);
    }
  }

  /** Whether {@code inside} is a directory inside. */
  static boolean isDirectory(Path root, String dir, String inside) throws IOException {
    String r = resolve(root, dir, inside);
    return r != null && Files.isDirectory(host(root, r), LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * Where {@code program} is inside, as execvp finds it: a name with a slash is a path from {@code
   * dir}; any other is searched on the environment's PATH ({@link #EXECVP_PATH} without one). Null
   * if it is no executable regular file there.
   */
  static String findProgram(Path root, String dir, String program, Map<String, String> env)
      throws IOException {
    if (program.contains("/")) {
      return executable(root, dir, program);
    }
    for (String d : env.getOrDefault("PATH", EXECVP_PATH).split(":", -1)) {
      String found = executable(root, dir, (d.isEmpty() ? "." : d) + "/" + program);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static String executable(Path root, String dir, String path) throws IOException {
    String r = resolve(root, dir, path);
    if (r == null) {
      return null;
    }
    Path host = host(root, r);
    return Files.isRegularFile(host, LinkOption.NOFOLLOW_LINKS) && Files.isExecutable(host)
        ? r
        : null;
  }
}
