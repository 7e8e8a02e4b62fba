package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.NetworkSpec;
import org.lmctfy.spec.NetworkSpec.InterfacePriority;

/**
 * network (v1 only): {@code classid} is {@code net_cls.classid} (REPLACE without it writes 0),
 * {@code priorities} lines {@code "iface N"} of {@code net_prio.ifpriomap}; interfaces with a
 * priority now and left out of the list go back to 0.
 */
final class NetworkHandler implements ResourceHandler {
  static final String CLASSID = "network.classid";
  static final String PRIORITIES = "network.priorities";

  private static final List<Field> FIELDS =
      List.of(
          new Field(
              CLASSID,
              null,
              List.of("net_cls.classid"),
              List.of(),
              s -> s.network() == null ? null : s.network().classid()),
          new Field(
              PRIORITIES,
              null,
              List.of("net_prio.ifpriomap"),
              List.of(),
              s -> s.network() == null ? null : s.network().priorities()));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  @Override
  public void plan(ContainerSpec s, Mode mode, ContainerView view, Planning out) {
    NetworkSpec spec = s.network();
    boolean replace = mode == Mode.REPLACE;
    Long classid = spec == null ? null : spec.classid();
    if (classid != null || replace && view.find("net_cls").isPresent()) {
      Hierarchy h = view.require("net_cls", CLASSID);
      out.writes.add(
          new FileWrite(
              h, "net_cls.classid", Long.toString(classid == null ? 0 : classid), CLASSID));
    }
    List<InterfacePriority> wanted = spec == null ? List.of() : spec.priorities();
    if (!wanted.isEmpty() || mode != Mode.CREATE && view.find("net_prio").isPresent()) {
      Hierarchy h = view.require("net_prio", PRIORITIES);
      List<InterfacePriority> all = new ArrayList<>(wanted);
      if (mode != Mode.CREATE) {
        for (InterfacePriority now : readPriorities(view, h)) {
          if (wanted.stream().noneMatch(w -> w.iface().equals(now.iface()))) {
            all.add(new InterfacePriority(now.iface(), 0));
          }
        }
      }
      for (InterfacePriority p : all) {
        out.writes.add(
            new FileWrite(h, "net_prio.ifpriomap", p.iface() + " " + p.priority(), PRIORITIES));
      }
    }
  }

  private static List<InterfacePriority> readPriorities(ContainerView view, Hierarchy h) {
    List<InterfacePriority> out = new ArrayList<>();
    for (String line : view.readSelf(h, "net_prio.ifpriomap").split("\n")) {
      String[] kv = line.strip().split("\\s+");
      if (kv.length == 2 && !kv[1].equals("0")) {
        out.add(new InterfacePriority(kv[0], Integer.parseInt(kv[1])));
      }
    }
    return out;
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    Long classid =
        fields.contains(CLASSID)
            ? Units.number(
                view.readSelf(view.require("net_cls", CLASSID), "net_cls.classid"),
                "net_cls.classid")
            : null;
    List<InterfacePriority> priorities =
        fields.contains(PRIORITIES)
            ? readPriorities(view, view.require("net_prio", PRIORITIES))
            : List.of();
    out.network(
        classid == null && !fields.contains(PRIORITIES)
            ? null
            : new NetworkSpec(classid, priorities));
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    NetworkSpec n = spec.network();
    out.network(
        anyOf(given)
            ? new NetworkSpec(
                n.classid(), n.priorities().stream().filter(p -> p.priority() != 0).toList())
            : null);
  }
}
