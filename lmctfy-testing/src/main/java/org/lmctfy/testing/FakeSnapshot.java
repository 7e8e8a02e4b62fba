package org.lmctfy.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The whole state of a {@link FakeCgroupFs} at one moment: its hierarchies, every cgroup with the
 * content of each readable interface file, its owners and markers, and the process table. Two
 * snapshots are equal when the states are; {@link #differencesFrom} says how they differ.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * FakeSnapshot before = fs.snapshot();
 * assertThatThrownBy(() -> api.create("/job", badSpec)).isInstanceOf(LmctfyException.class);
 * assertThat(fs.snapshot().differencesFrom(before)).isEmpty();   // the failed create left nothing
 * }</pre>
 *
 * @since 0.1
 */
public final class FakeSnapshot {
  private final SortedMap<String, SortedMap<String, String>> sections;

  FakeSnapshot(Map<String, Map<String, String>> sections) {
    SortedMap<String, SortedMap<String, String>> copy = new TreeMap<>();
    sections.forEach((k, v) -> copy.put(k, Collections.unmodifiableSortedMap(new TreeMap<>(v))));
    this.sections = Collections.unmodifiableSortedMap(copy);
  }

  /**
   * Every cgroup, roots included, as {@code "memory:/a/b"} (hierarchy label, colon, path).
   *
   * @return Every cgroup, roots included, as {@code "memory:/a/b"} (hierarchy label, colon, path)
   */
  public Set<String> cgroups() {
    TreeSet<String> cgroups = new TreeSet<>();
    for (String k : sections.keySet()) {
      if (isCgroup(k)) {
        cgroups.add(k);
      }
    }
    return Collections.unmodifiableSortedSet(cgroups);
  }

  /**
   * The content of one file in this snapshot without the kernel's final newline ({@code
   * "104857600"}; lines of a multi-line file stay separated by newlines), or null if there is no
   * such cgroup or file: {@code file("memory:/a", "memory.limit_in_bytes")}.
   *
   * @param cgroup the cgroup
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @return the content of one file in this snapshot without the kernel's final newline ({@code
   *     "104857600"}; lines of a multi-line file stay separated by newlines), or null if there is
   *     no such cgroup or file: {@code file("memory:/a", "memory.limit_in_bytes")}
   */
  public String file(String cgroup, String file) {
    String content = sections.getOrDefault(cgroup, Collections.emptySortedMap()).get(file);
    return content != null && content.endsWith("\n")
        ? content.substring(0, content.length() - 1)
        : content;
  }

  private static boolean isCgroup(String key) {
    return !key.startsWith("hierarchy ") && !key.startsWith("process ");
  }

  /**
   * How this snapshot differs from {@code other} (an earlier one, usually), one line each, in
   * order: {@code "+ memory:/a"} for a cgroup (hierarchy, process) only here, {@code "- memory:/a"}
   * for one only there, and {@code "~ memory:/ memory.stat: old -> new"} for an entry that changed.
   * Empty when the snapshots are equal.
   *
   * @param other the other
   * @return How this snapshot differs from {@code other} (an earlier one, usually), one line each,
   *     in order: {@code "+ memory:/a"} for a cgroup (hierarchy, process) only here, {@code "-
   *     memory:/a"} for one only there, and {@code "~ memory:/ memory.stat: old -> new"} for an
   *     entry that changed
   */
  public List<String> differencesFrom(FakeSnapshot other) {
    List<String> out = new ArrayList<>();
    Set<String> keys = new TreeSet<>(sections.keySet());
    keys.addAll(other.sections.keySet());
    for (String k : keys) {
      Map<String, String> mine = sections.get(k);
      Map<String, String> theirs = other.sections.get(k);
      if (theirs == null) {
        out.add("+ " + k);
      } else if (mine == null) {
        out.add("- " + k);
      } else {
        Set<String> entries = new TreeSet<>(mine.keySet());
        entries.addAll(theirs.keySet());
        for (String e : entries) {
          String a = theirs.get(e);
          String b = mine.get(e);
          if (a == null || !a.equals(b)) {
            out.add("~ " + k + " " + e + ": " + show(a) + " -> " + show(b));
          }
        }
      }
    }
    return out;
  }

  private static String show(String content) {
    if (content == null) {
      return "(none)";
    }
    String s = content.endsWith("\n") ? content.substring(0, content.length() - 1) : content;
    return s.isEmpty() ? "\"\"" : s.replace("\n", " | ");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FakeSnapshot && ((FakeSnapshot) o).sections.equals(sections);
  }

  @Override
  public int hashCode() {
    return sections.hashCode();
  }

  /** One section per line, its entries indented below it; multi-line contents joined with " | ". */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, SortedMap<String, String>> s : sections.entrySet()) {
      sb.append(s.getKey()).append('\n');
      for (Map.Entry<String, String> e : s.getValue().entrySet()) {
        sb.append("  ").append(e.getKey()).append(": ").append(show(e.getValue())).append('\n');
      }
    }
    return sb.toString();
  }
}
