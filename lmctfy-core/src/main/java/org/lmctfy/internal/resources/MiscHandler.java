package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.MiscSpec;
import org.lmctfy.spec.MiscSpec.MiscLimit;

/**
 * misc (v2): {@code misc.max} lines {@code "resource N"}; resources limited now and left out of the
 * list go back to {@code max}.
 */
final class MiscHandler implements ResourceHandler {
  static final String LIMITS = "misc.limits";

  private static final List<Field> FIELDS =
      List.of(new Field(LIMITS, "misc", List.of(), List.of("misc.max"), ContainerSpec::misc));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  @Override
  public void plan(ContainerSpec s, Mode mode, ContainerView view, Planning out) {
    MiscSpec spec = s.misc();
    if (spec == null && !(mode == Mode.REPLACE && view.has("misc"))) {
      return;
    }
    Hierarchy h = view.require("misc", "misc");
    List<MiscLimit> limits = new ArrayList<>(spec == null ? List.of() : spec.limits());
    if (mode != Mode.CREATE) {
      for (MiscLimit now : read(view, h)) {
        if (limits.stream().noneMatch(l -> l.resource().equals(now.resource()))) {
          limits.add(new MiscLimit(now.resource(), -1));
        }
      }
    }
    for (MiscLimit l : limits) {
      out.writes.add(
          new FileWrite(h, "misc.max", l.resource() + " " + Units.v2Bytes(l.limit()), LIMITS));
    }
  }

  private static List<MiscLimit> read(ContainerView view, Hierarchy h) {
    List<MiscLimit> out = new ArrayList<>();
    for (String line : view.readSelf(h, "misc.max").split("\n")) {
      String[] kv = line.strip().split("\\s+");
      if (kv.length == 2 && !kv[1].equals("max")) {
        out.add(new MiscLimit(kv[0], Units.number(kv[1], "misc.max")));
      }
    }
    return out;
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    out.misc(
        fields.contains(LIMITS) ? new MiscSpec(read(view, view.require("misc", "misc"))) : null);
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    MiscSpec misc = spec.misc();
    out.misc(
        misc == null
            ? null
            : new MiscSpec(misc.limits().stream().filter(l -> l.limit() >= 0).toList()));
  }
}
