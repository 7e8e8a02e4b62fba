package org.lmctfy.internal.stats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;

/**
 * Reads the stat files of one container after another into one reused buffer ({@link
 * CgroupFs#readInto}) and parses numbers straight from its bytes: no string, array or map per file
 * unless the caller asks for a map (FULL's breakdowns). A file this kernel lacks is absent (the
 * field stays null), a container that is gone is NOT_FOUND, any other refusal is an error naming
 * the file. One per stats call; not thread-safe.
 */
final class StatFiles {
  /** What the parsers return for a value that is not there. */
  static final long ABSENT = Long.MIN_VALUE;

  private final CgroupFs fs;
  private byte[] buf = new byte[8192];

  /** The loaded file: {@code buf[0, len)}. */
  private int len;

  /** Where a parser stopped. */
  int pos;

  private String name;
  private CgroupPath path;
  private Hierarchy h;
  private CgroupPath loaded;
  private String file;

  StatFiles(CgroupFs fs) {
    this.fs = fs;
  }

  /** The container whose files the next calls read. */
  void at(String name, CgroupPath path) {
    this.name = name;
    this.path = path;
  }

  CgroupPath path() {
    return path;
  }

  /** Loads a file of the current container; false if there is no such file. */
  boolean load(Hierarchy h, String file) {
    return load(h, path, file);
  }

  /** Loads a file of the cgroup {@code p} (an ancestor, say); false if there is no such file. */
  boolean load(Hierarchy h, CgroupPath p, String file) {
    this.h = h;
    this.loaded = p;
    this.file = file;
    while (true) {
      int n;
      try {
        n = fs.readInto(h, p, file, buf);
      } catch (IOException e) {
        throw fail(e);
      }
      if (n < 0) {
        len = 0;
        if (!exists(h, p)) {
          throw new LmctfyException(
              ErrorCode.NOT_FOUND,
              "container "
                  + name
                  + " does not exist (its cgroup "
                  + h.display(p, null)
                  + " is gone)");
        }
        return false;
      }
      if (n < buf.length) {
        len = n;
        pos = 0;
        return true;
      }
      buf = new byte[buf.length * 2]; // the file may be longer: read it again whole
    }
  }

  private boolean exists(Hierarchy h, CgroupPath p) {
    try {
      return fs.exists(h, p);
    } catch (IOException e) {
      throw fail(e);
    }
  }

  private LmctfyException fail(IOException e) {
    return Errors.of("stats of " + name, e);
  }

  /** A file holding one number, {@code max} being -1; ABSENT if there is no such file. */
  long number(Hierarchy h, String file) {
    return load(h, file) ? number() : ABSENT;
  }

  /** The loaded file's first token as a number, {@code max} being -1. */
  long number() {
    pos = 0;
    skipSpaces();
    if (pos + 3 <= len && buf[pos] == 'm' && buf[pos + 1] == 'a' && buf[pos + 2] == 'x') {
      return -1;
    }
    return parseLong();
  }

  /**
   * One pass over the {@code key value} lines of a loaded file (memory.stat, cpu.stat,
   * memory.events): {@code out[i]} is the value of {@code keys[i]}, or ABSENT.
   */
  void keyed(byte[][] keys, long[] out) {
    java.util.Arrays.fill(out, ABSENT);
    int found = 0;
    for (int line = 0; line < len && found < keys.length; ) {
      int space = wordEnd(line);
      int end = lineEnd(space);
      if (space < end) {
        for (int k = 0; k < keys.length; k++) {
          if (out[k] == ABSENT && matches(keys[k], line, space)) {
            pos = space + 1;
            out[k] = parseLong();
            found++;
            break;
          }
        }
      }
      line = end + 1;
    }
  }

  /** The loaded {@code key value} file as a map, in the kernel's order (FULL's breakdowns). */
  Map<String, Long> map() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (int line = 0; line < len; ) {
      int space = wordEnd(line);
      int end = lineEnd(space);
      if (space > line && space < end) {
        pos = space + 1;
        out.put(new String(buf, line, space - line, StandardCharsets.US_ASCII), parseLong());
      }
      line = end + 1;
    }
    return out;
  }

  boolean matches(byte[] key, int from, int to) {
    if (to - from != key.length) {
      return false;
    }
    for (int i = 0; i < key.length; i++) {
      if (buf[from + i] != key[i]) {
        return false;
      }
    }
    return true;
  }

  /** The loaded file as text. */
  String text() {
    return new String(buf, 0, len, StandardCharsets.US_ASCII);
  }

  int length() {
    return len;
  }

  byte at(int i) {
    return buf[i];
  }

  void skipSpaces() {
    while (pos < len && (buf[pos] == ' ' || buf[pos] == '\t')) {
      pos++;
    }
  }

  /**
   * The decimal at {@code pos} (unsigned, as the kernel prints u64; a leading '-' negates); moves
   * past it.
   */
  long parseLong() {
    int start = pos;
    boolean negative = pos < len && buf[pos] == '-';
    if (negative) {
      pos++;
    }
    long v = 0;
    int digits = 0;
    while (pos < len && buf[pos] >= '0' && buf[pos] <= '9') {
      v = v * 10 + (buf[pos++] - '0');
      digits++;
    }
    if (digits == 0) {
      throw unexpected(start);
    }
    return negative ? -v : v;
  }

  /** The decimal with an optional fraction at {@code pos} ({@code 12.34}); moves past it. */
  double parseDecimal() {
    long whole = parseLong();
    if (pos >= len || buf[pos] != '.') {
      return whole;
    }
    pos++;
    long fraction = 0;
    long scale = 1;
    while (pos < len && buf[pos] >= '0' && buf[pos] <= '9' && scale < 1_000_000_000_000L) {
      fraction = fraction * 10 + (buf[pos++] - '0');
      scale *= 10;
    }
    while (pos < len && buf[pos] >= '0' && buf[pos] <= '9') {
      pos++;
    }
    return whole + (double) fraction / scale;
  }

  /** Moves {@code pos} past the next {@code c} on this line; false at the line's end. */
  boolean skipPast(byte c) {
    while (pos < len && buf[pos] != '\n') {
      if (buf[pos++] == c) {
        return true;
      }
    }
    return false;
  }

  /** Moves {@code pos} to the start of the next line. */
  void nextLine() {
    while (pos < len && buf[pos++] != '\n') {
      // past the newline
    }
  }

  /** Where the word at {@code pos} ends: the next space or newline. */
  int wordEnd() {
    return wordEnd(pos);
  }

  private int wordEnd(int from) {
    int end = from;
    while (end < len && buf[end] != ' ' && buf[end] != '\n') {
      end++;
    }
    return end;
  }

  /** Where the line holding {@code from} ends: the next newline, or the end of the file. */
  private int lineEnd(int from) {
    int end = from;
    while (end < len && buf[end] != '\n') {
      end++;
    }
    return end;
  }

  LmctfyException unexpected(int at) {
    int end = at;
    while (end < len && buf[end] != '\n' && buf[end] != ' ' && end - at < 40) {
      end++;
    }
    return new LmctfyException(
        ErrorCode.INTERNAL,
        "unexpected value \""
            + new String(buf, at, end - at, StandardCharsets.UTF_8)
            + "\" in "
            + h.display(loaded, file));
  }

  static byte[][] keys(String... names) {
    byte[][] out = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      out[i] = names[i].getBytes(StandardCharsets.US_ASCII);
    }
    return out;
  }

  /** {@code v}, or null for ABSENT. */
  static Long boxed(long v) {
    return v == ABSENT ? null : v;
  }
}
