package org.lmctfy.internal.codec;

import java.util.LinkedHashMap;
import java.util.Map;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * The one parser of the kernel's flat-keyed files: a {@code key value} pair per line, as in {@code
 * memory.stat}, {@code cpu.stat}, {@code memory.events}, {@code memory.oom_control} and {@code
 * cgroup.events}.
 */
public final class FlatKeyed {
  private FlatKeyed() {}

  /**
   * The pairs of {@code text} in their order; a line without a space is skipped. INTERNAL, naming
   * {@code file}, for a value that is not a number.
   */
  public static Map<String, Long> parse(String text, String file) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      String l = line.strip();
      int space = l.indexOf(' ');
      if (space > 0) {
        out.put(l.substring(0, space), number(l.substring(space + 1).strip(), file));
      }
    }
    return out;
  }

  /**
   * Whether the space-separated list {@code text} ({@code cgroup.controllers}, {@code
   * cgroup.subtree_control}) holds {@code word}; searched in place, without splitting or hashing:
   * these are read on every v2 create.
   */
  public static boolean hasWord(String text, String word) {
    for (int i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
      int end = i + word.length();
      if ((i == 0 || Character.isWhitespace(text.charAt(i - 1)))
          && (end == text.length() || Character.isWhitespace(text.charAt(end)))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A number as the kernel prints it, unsigned 64-bit values too; INTERNAL, naming {@code file}, if
   * not.
   */
  public static long number(String v, String file) {
    try {
      return Long.parseUnsignedLong(v);
    } catch (NumberFormatException e) {
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException again) {
        throw new LmctfyException(
            ErrorCode.INTERNAL, "unexpected value \"" + v + "\" in " + file, again);
      }
    }
  }
}
