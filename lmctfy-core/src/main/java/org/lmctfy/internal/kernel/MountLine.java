package org.lmctfy.internal.kernel;

/**
 * One line of {@code /proc/<pid>/mountinfo}: {@code id parent major:minor root mountpoint options
 * [optional fields...] - fstype source superoptions}, with the kernel's octal escapes ({@code \040}
 * for a space) undone in the root and the mount point.
 */
record MountLine(String root, String mountPoint, String fsType, String superOptions) {

  /** The parsed line, or null for a line that is not a mount (blank or malformed). */
  static MountLine parse(String line) {
    String[] fields = line.trim().split(" ");
    int dash = -1;
    for (int i = 6; i < fields.length; i++) {
      if (fields[i].equals("-")) {
        dash = i;
        break;
      }
    }
    if (fields.length < 10 || dash < 0 || dash + 3 > fields.length) {
      return null;
    }
    String superOptions = dash + 3 < fields.length ? fields[dash + 3] : "";
    return new MountLine(unescape(fields[3]), unescape(fields[4]), fields[dash + 1], superOptions);
  }

  /** Undoes mountinfo's {@code \ooo} octal escapes. */
  static String unescape(String field) {
    if (field.indexOf('\\') < 0) {
      return field;
    }
    StringBuilder sb = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && isOctal(field, i + 1)) {
        sb.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static boolean isOctal(String s, int from) {
    if (from + 3 > s.length()) {
      return false;
    }
    for (int i = from; i < from + 3; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '7') {
        return false;
      }
    }
    return true;
  }
}
