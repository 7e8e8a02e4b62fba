package org.lmctfy.internal.resources;

import java.util.TreeSet;

/** The kernel's list format for cpus and memory nodes ({@code "0-3,6"}), as sets. */
final class CpuList {
  private CpuList() {}

  static TreeSet<Integer> parse(String list) {
    TreeSet<Integer> out = new TreeSet<>();
    for (String part : list.strip().split(",")) {
      if (part.isBlank()) {
        continue;
      }
      String[] range = part.strip().split("-");
      int from = Integer.parseInt(range[0]);
      int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
      for (int i = from; i <= to; i++) {
        out.add(i);
      }
    }
    return out;
  }

  static String format(TreeSet<Integer> set) {
    StringBuilder sb = new StringBuilder();
    Integer start = null;
    Integer prev = null;
    for (int i : set) {
      if (prev != null && i == prev + 1) {
        prev = i;
        continue;
      }
      append(sb, start, prev);
      start = i;
      prev = i;
    }
    append(sb, start, prev);
    return sb.toString();
  }

  private static void append(StringBuilder sb, Integer start, Integer end) {
    if (start == null) {
      return;
    }
    if (sb.length() > 0) {
      sb.append(',');
    }
    sb.append(start);
    if (!end.equals(start)) {
      sb.append('-').append(end);
    }
  }
}
