package org.lmctfy.internal.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * Finds the mounted cgroup hierarchies from the text of {@code /proc/self/mountinfo}, {@code
 * /proc/self/cgroup} and {@code /proc/cgroups}: a pure function, so it is tested on fixtures of
 * real layouts (v1, v2, hybrid, inside a container).
 */
final class Discovery {
  private Discovery() {}

  /** One line of {@code /proc/<pid>/cgroup}: {@code id:controllers:path}. */
  record Membership(String hierarchyName, boolean unified, String path) {}

  /**
   * The hierarchies, v1 in mount order then v2. A hierarchy mounted more than once is taken once:
   * at the mount whose root holds this process's cgroup, else the first.
   *
   * @param v2Controllers reads {@code cgroup.controllers} of a v2 mount point
   */
  static List<Hierarchy> hierarchies(
      String mountinfo,
      String selfCgroup,
      String procCgroups,
      Function<String, String> v2Controllers) {
    Set<String> known = knownControllers(procCgroups);
    Map<String, String> selfPaths = new LinkedHashMap<>();
    Map<Set<String>, String> namesBySet = new LinkedHashMap<>();
    for (Membership m : memberships(selfCgroup)) {
      String key = m.unified() ? "" : m.hierarchyName();
      selfPaths.put(key, m.path());
      if (!m.unified()) {
        namesBySet.put(Set.of(m.hierarchyName().split(",")), m.hierarchyName());
      }
    }
    Map<String, Hierarchy> chosen = new LinkedHashMap<>();
    Hierarchy v2 = null;
    for (String line : mountinfo.split("\n")) {
      MountLine mount = MountLine.parse(line);
      if (mount == null) {
        continue;
      }
      if (mount.fsType().equals("cgroup2")) {
        Hierarchy h =
            new Hierarchy(
                "",
                CgroupVersion.V2,
                splitWords(v2Controllers.apply(mount.mountPoint())),
                mount.mountPoint(),
                mount.root());
        if (v2 == null || holdsSelf(h, selfPaths.get("")) && !holdsSelf(v2, selfPaths.get(""))) {
          v2 = h;
        }
      } else if (mount.fsType().equals("cgroup")) {
        Set<String> controllers = new LinkedHashSet<>();
        String named = null;
        for (String option : mount.superOptions().split(",")) {
          if (known.contains(option)) {
            controllers.add(option);
          } else if (option.startsWith("name=")) {
            named = option;
          }
        }
        Set<String> nameSet = new LinkedHashSet<>(controllers);
        if (named != null) {
          nameSet.add(named);
        }
        if (nameSet.isEmpty()) {
          continue;
        }
        String name = namesBySet.getOrDefault(Set.copyOf(nameSet), String.join(",", nameSet));
        Hierarchy h =
            new Hierarchy(name, CgroupVersion.V1, controllers, mount.mountPoint(), mount.root());
        Hierarchy previous = chosen.get(name);
        if (previous == null
            || holdsSelf(h, selfPaths.get(name)) && !holdsSelf(previous, selfPaths.get(name))) {
          chosen.put(name, h);
        }
      }
    }
    List<Hierarchy> out = new ArrayList<>(chosen.values());
    if (v2 != null) {
      out.add(v2);
    }
    return List.copyOf(out);
  }

  private static boolean holdsSelf(Hierarchy h, String selfPath) {
    return selfPath != null
        && CgroupPath.of(h.mountRoot()).isAncestorOrSelf(CgroupPath.of(selfPath));
  }

  /** The enabled controllers of {@code /proc/cgroups}. */
  static Set<String> knownControllers(String procCgroups) {
    Set<String> out = new LinkedHashSet<>();
    for (String[] row : procCgroupRows(procCgroups)) {
      if (row[3].equals("1")) {
        out.add(row[0]);
      }
    }
    return out;
  }

  /** Enabled controllers in no v1 hierarchy (hierarchy id 0). */
  static Set<String> unboundControllers(String procCgroups) {
    Set<String> out = new LinkedHashSet<>();
    for (String[] row : procCgroupRows(procCgroups)) {
      if (row[3].equals("1") && row[1].equals("0")) {
        out.add(row[0]);
      }
    }
    return out;
  }

  private static List<String[]> procCgroupRows(String procCgroups) {
    List<String[]> rows = new ArrayList<>();
    for (String line : procCgroups.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] row = line.trim().split("\\s+");
      if (row.length >= 4) {
        rows.add(row);
      }
    }
    return rows;
  }

  /** The lines of a {@code /proc/<pid>/cgroup} file. */
  static List<Membership> memberships(String procPidCgroup) {
    List<Membership> out = new ArrayList<>();
    for (String line : procPidCgroup.split("\n")) {
      int first = line.indexOf(':');
      int second = first < 0 ? -1 : line.indexOf(':', first + 1);
      if (second < 0) {
        continue;
      }
      String id = line.substring(0, first);
      String controllers = line.substring(first + 1, second);
      String path = line.substring(second + 1);
      if (path.endsWith(" (deleted)")) {
        path = path.substring(0, path.length() - " (deleted)".length());
      }
      out.add(new Membership(controllers, id.equals("0") && controllers.isEmpty(), path));
    }
    return out;
  }

  static Set<String> splitWords(String text) {
    Set<String> out = new LinkedHashSet<>();
    if (text != null) {
      for (String w : text.trim().split("\\s+")) {
        if (!w.isEmpty()) {
          out.add(w);
        }
      }
    }
    return out;
  }
}
