package org.lmctfy.internal.resources;

import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.PidsSpec;

/** pids: {@code limit} is {@code pids.max} on v1 and v2; -1 is {@code max}. */
final class PidsHandler implements ResourceHandler {
  static final String LIMIT = "pids.limit";

  @Override
  public List<Field> fields() {
    return List.of(
        new Field(
            LIMIT,
            "pids",
            List.of("pids.max"),
            List.of("pids.max"),
            s -> s.pids() == null ? null : s.pids().limit()));
  }

  @Override
  public void plan(ContainerSpec spec, Mode mode, Host host, Planning out) {
    plan(spec.pids(), mode, host, out.writes);
  }

  @Override
  public void read(Host host, Set<String> fields, ContainerSpec.Builder out) {
    out.pids(read(host, fields));
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, Host host, ContainerSpec.Builder out) {
    out.pids(given.contains(LIMIT) ? spec.pids() : null);
  }

  static void plan(PidsSpec pids, Mode mode, Host host, List<FileWrite> out) {
    Long limit = pids == null ? null : pids.limit();
    if (limit == null && !(mode == Mode.REPLACE && host.has("pids"))) {
      return;
    }
    Hierarchy h = host.require("pids", "pids.limit");
    out.add(
        new FileWrite(
            h, "pids.max", limit == null || limit < 0 ? "max" : limit.toString(), "pids.limit"));
  }

  static PidsSpec read(Host host, Set<String> fields) {
    if (!fields.contains("pids.limit")) {
      return null;
    }
    String max = host.readSelf(host.require("pids", "pids.limit"), "pids.max");
    return new PidsSpec(max.equals("max") ? -1L : Kernel.number(max, "pids.max"));
  }
}
