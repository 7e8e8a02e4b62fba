package org.lmctfy.internal.resources;

import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.PidsSpec;

/** pids: {@code limit} is {@code pids.max} on v1 and v2; -1 is {@code max}. */
final class PidsHandler implements ResourceHandler {
  static final String LIMIT = "pids.limit";

  private static final List<Field> FIELDS =
      List.of(
          new Field(
              LIMIT,
              "pids",
              List.of("pids.max"),
              List.of("pids.max"),
              s -> s.pids() == null ? null : s.pids().limit()));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  @Override
  public void plan(ContainerSpec spec, Mode mode, ContainerView view, Planning planning) {
    List<FileWrite> out = planning.writes;
    Long limit = spec.pids() == null ? null : spec.pids().limit();
    if (limit == null && !(mode == Mode.REPLACE && view.has("pids"))) {
      return;
    }
    Hierarchy h = view.require("pids", "pids.limit");
    out.add(
        new FileWrite(
            h, "pids.max", limit == null || limit < 0 ? "max" : limit.toString(), "pids.limit"));
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    out.pids(read(view, fields));
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.pids(given.contains(LIMIT) ? spec.pids() : null);
  }

  static PidsSpec read(ContainerView view, Set<String> fields) {
    if (!fields.contains("pids.limit")) {
      return null;
    }
    String max = view.readSelf(view.require("pids", "pids.limit"), "pids.max");
    return new PidsSpec(max.equals("max") ? -1L : Units.number(max, "pids.max"));
  }
}
