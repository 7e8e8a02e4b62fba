package org.lmctfy.internal.kernel.vhost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * What the virtual hosts read of processes in {@code /proc}: start times (the identity that a
 * reused pid cannot fake), children, namespaces and executables. Reading opens no namespace: a
 * namespace link is only stat'ed, and no descriptor of this JVM ever keeps one alive. Stateless.
 */
final class Procfs {
  private static final Path PROC = Path.of("/proc");

  /** The namespaces a join looks at, in nsenter's option letters' order. */
  static final List<String> NAMESPACES = List.of("user", "mnt", "uts", "ipc", "net", "pid");

  private Procfs() {}

  /** Field 22 of {@code /proc/<pid>/stat}, or empty if there is no such process. */
  static OptionalLong startTime(long pid) throws IOException {
    String stat;
    try {
      stat = Files.readString(PROC.resolve(pid + "/stat"), StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      return OptionalLong.empty();
    } catch (IOException e) {
      if (isGone(e)) {
        return OptionalLong.empty();
      }
      throw e;
    }
    // comm (field 2) may hold spaces and parentheses: the fields after it start after the last ')'
    String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return OptionalLong.of(Long.parseLong(rest[22 - 3]));
  }

  /** Whether {@code pid} is a zombie or gone. */
  static boolean ended(long pid) throws IOException {
    try {
      String stat = Files.readString(PROC.resolve(pid + "/stat"), StandardCharsets.US_ASCII);
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state == 'Z' || state == 'X';
    } catch (NoSuchFileException e) {
      return true;
    } catch (IOException e) {
      if (isGone(e)) {
        return true;
      }
      throw e;
    }
  }

  /** The children of {@code pid}'s main thread, or an empty list if it has none or is gone. */
  static List<Long> children(long pid) throws IOException {
    String text;
    try {
      text =
          Files.readString(
              PROC.resolve(pid + "/task/" + pid + "/children"), StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      if (isGone(e)) {
        return List.of();
      }
      throw e;
    }
    List<Long> out = new ArrayList<>();
    for (String c : text.strip().split(" ")) {
      if (!c.isEmpty()) {
        out.add(Long.parseLong(c));
      }
    }
    return out;
  }

  /**
   * The inode of {@code /proc/<pid>/ns/<ns>}: the namespace's identity; -1 if the process is gone
   * (or a zombie, whose namespaces are gone).
   */
  static long namespace(long pid, String ns) throws IOException {
    return inode(PROC.resolve(pid + "/ns/" + ns));
  }

  /** The device and inode of the file {@code pid} executes, or null if it is gone. */
  static FileId executable(long pid) throws IOException {
    Path exe = PROC.resolve(pid + "/exe");
    try {
      return FileId.of(exe);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      if (isGone(e)) {
        return null;
      }
      throw e;
    }
  }

  private static long inode(Path p) throws IOException {
    try {
      return ((Number) Files.getAttribute(p, "unix:ino")).longValue();
    } catch (NoSuchFileException e) {
      return -1;
    } catch (IOException e) {
      if (isGone(e)) {
        return -1;
      }
      throw e;
    }
  }

  /**
   * ESRCH (a process that ended while its files were read) and ENOENT come as plain IOExceptions or
   * NoSuchFileException; a zombie's links deny access.
   */
  private static boolean isGone(IOException e) {
    String m = String.valueOf(e.getMessage());
    return e instanceof AccessDeniedException
        ? false
        : m.contains("No such process") || m.contains("No such file");
  }

  /** A file's identity: its device and inode. */
  record FileId(long dev, long ino) {
    static FileId of(Path p) throws IOException {
      return new FileId(
          ((Number) Files.getAttribute(p, "unix:dev")).longValue(),
          ((Number) Files.getAttribute(p, "unix:ino")).longValue());
    }
  }
}
