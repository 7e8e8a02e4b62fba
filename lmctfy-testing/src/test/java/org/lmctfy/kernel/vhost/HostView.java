package org.lmctfy.kernel.vhost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** What the host sees of processes, namespaces and mounts, read from its /proc for assertions. */
public final class HostView {
  /** The namespaces a virtual host may have of its own. */
  static final List<String> NAMESPACES = List.of("pid", "mnt", "ipc", "uts", "net", "user");

  private HostView() {}

  /** The inode of {@code /proc/<pid>/ns/<ns>}, -1 if it is gone. */
  public static long namespace(long pid, String ns) {
    try {
      return ((Number) Files.getAttribute(Path.of("/proc/" + pid + "/ns/" + ns), "unix:ino"))
          .longValue();
    } catch (IOException e) {
      return -1;
    }
  }

  /** Each namespace of {@code pid}, by name. */
  public static Map<String, Long> namespaces(long pid) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String ns : NAMESPACES) {
      out.put(ns, namespace(pid, ns));
    }
    return out;
  }

  /** The host's mount table, as this JVM sees it. */
  public static List<String> mounts() throws IOException {
    return Files.readAllLines(Path.of("/proc/self/mountinfo"));
  }

  /** The pids of the machine. */
  public static List<Long> pids() throws IOException {
    List<Long> out = new ArrayList<>();
    try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"))) {
      for (Path p : proc) {
        String n = p.getFileName().toString();
        if (!n.isEmpty() && n.chars().allMatch(Character::isDigit)) {
          out.add(Long.parseLong(n));
        }
      }
    }
    return out;
  }

  /**
   * Who holds any of {@code inodes} (namespaces of a gone virtual host): every process one of whose
   * namespaces it is, and every open descriptor that refers to one (this JVM's included), as {@code
   * "pid 12 ns/mnt"} or {@code "pid 12 fd 5 -> mnt:[4026532187]"}.
   */
  public static List<String> holders(List<Long> inodes) throws IOException {
    List<String> out = new ArrayList<>();
    for (long pid : pids()) {
      for (String ns : NAMESPACES) {
        if (inodes.contains(namespace(pid, ns))) {
          out.add("pid " + pid + " ns/" + ns + " (" + comm(pid) + ")");
        }
      }
      try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/" + pid + "/fd"))) {
        for (Path fd : fds) {
          String target;
          try {
            target = Files.readSymbolicLink(fd).toString();
          } catch (IOException e) {
            continue; // closed meanwhile
          }
          for (long ino : inodes) {
            if (target.endsWith(":[" + ino + "]")
                && !target.startsWith("socket:")
                && !target.startsWith("pipe:")) {
              out.add(
                  "pid "
                      + pid
                      + " fd "
                      + fd.getFileName()
                      + " -> "
                      + target
                      + " ("
                      + comm(pid)
                      + ")");
            }
          }
        }
      } catch (IOException e) {
        // the process ended while its descriptors were listed
      }
    }
    return out;
  }

  /** The processes whose cgroup (any hierarchy) mentions {@code path}, as {@code "pid (comm)"}. */
  public static List<String> processesInCgroupsBelow(String path) throws IOException {
    List<String> out = new ArrayList<>();
    for (long pid : pids()) {
      try {
        String cgroups = Files.readString(Path.of("/proc/" + pid + "/cgroup"));
        if (cgroups.contains(path + "/") || cgroups.contains(path + "\n")) {
          out.add(pid + " (" + comm(pid) + ", state " + state(pid) + ")");
        }
      } catch (IOException e) {
        // ended meanwhile
      }
    }
    return out;
  }

  /** The processes whose command line mentions {@code text}. */
  public static List<String> processesMentioning(String text) throws IOException {
    List<String> out = new ArrayList<>();
    for (long pid : pids()) {
      try {
        String cmdline =
            new String(
                    Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")),
                    StandardCharsets.UTF_8)
                .replace('\0', ' ');
        if (cmdline.contains(text)) {
          out.add(pid + " (" + cmdline.strip() + ", state " + state(pid) + ")");
        }
      } catch (IOException e) {
        // ended meanwhile
      }
    }
    return out;
  }

  /** The process's state letter, or '-' if it is gone. */
  public static char state(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2);
    } catch (IOException e) {
      return '-';
    }
  }

  /** Whether {@code pid} is gone (a zombie counts as present: someone must still reap it). */
  public static boolean gone(long pid) {
    return !Files.exists(Path.of("/proc/" + pid));
  }

  public static String comm(long pid) {
    try {
      return Files.readString(Path.of("/proc/" + pid + "/comm")).strip();
    } catch (IOException e) {
      return "?";
    }
  }

  /**
   * The {@code NSpid:} numbers of {@code pid}'s status: its pid in each pid namespace, outermost
   * first.
   */
  public static List<Long> nsPids(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("NSpid:")) {
        List<Long> out = new ArrayList<>();
        for (String n : line.substring("NSpid:".length()).trim().split("\\s+")) {
          out.add(Long.parseLong(n));
        }
        return out;
      }
    }
    throw new IOException("no NSpid in /proc/" + pid + "/status");
  }

  /**
   * Waits until {@code condition} holds: for what the kernel and the JVM's reaper finish
   * asynchronously (a killed process's parent reaping it). Fails after {@code limit}; no timing is
   * asserted, the limit is only where waiting stops.
   */
  public static void awaitNone(
      String what, Duration limit, java.util.concurrent.Callable<List<String>> found)
      throws Exception {
    long end = System.nanoTime() + limit.toNanos();
    while (true) {
      List<String> now = found.call();
      if (now.isEmpty()) {
        return;
      }
      if (System.nanoTime() > end) {
        throw new AssertionError("after " + limit.toSeconds() + " s, " + what + ": " + now);
      }
      Thread.sleep(10);
    }
  }

  /** {@link #awaitNone} for a condition. */
  public static void eventually(String what, Duration limit, BooleanSupplier condition)
      throws InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("not within " + limit.toSeconds() + " s: " + what);
      }
      Thread.sleep(10);
    }
  }
}
