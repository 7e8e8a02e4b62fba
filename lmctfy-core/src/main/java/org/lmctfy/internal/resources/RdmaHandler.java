package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RdmaSpec;
import org.lmctfy.spec.RdmaSpec.RdmaLimit;

/**
 * rdma: {@code rdma.max} lines {@code "mlx4_0 hca_handle=2 hca_object=max"}, both resources written
 * (an absent one unlimited), on v1 and v2; devices limited now and left out of the list go back to
 * unlimited.
 */
final class RdmaHandler implements ResourceHandler {
  static final String LIMITS = "rdma.limits";

  private static final List<Field> FIELDS =
      List.of(
          new Field(LIMITS, "rdma", List.of("rdma.max"), List.of("rdma.max"), ContainerSpec::rdma));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  @Override
  public void plan(ContainerSpec s, Mode mode, ContainerView view, Planning out) {
    RdmaSpec spec = s.rdma();
    if (spec == null && !(mode == Mode.REPLACE && view.has("rdma"))) {
      return;
    }
    Hierarchy h = view.require("rdma", LIMITS);
    List<RdmaLimit> limits = new ArrayList<>(spec == null ? List.of() : spec.limits());
    if (mode != Mode.CREATE) {
      for (RdmaLimit now : read(view, h)) {
        if (limits.stream().noneMatch(l -> l.device().equals(now.device()))) {
          limits.add(new RdmaLimit(now.device(), -1L, -1L));
        }
      }
    }
    for (RdmaLimit l : limits) {
      out.writes.add(
          new FileWrite(
              h,
              "rdma.max",
              l.device()
                  + " hca_handle="
                  + maxOr(l.hcaHandle())
                  + " hca_object="
                  + maxOr(l.hcaObject()),
              LIMITS));
    }
  }

  private static String maxOr(Long v) {
    return v == null || v < 0 ? "max" : v.toString();
  }

  /**
   * The devices with a limit: every line of rdma.max with a number (the kernel lists every device).
   */
  private static List<RdmaLimit> read(ContainerView view, Hierarchy h) {
    List<RdmaLimit> out = new ArrayList<>();
    for (String line : view.readSelf(h, "rdma.max").split("\n")) {
      String[] f = line.strip().split("\\s+");
      if (f.length < 2) {
        continue;
      }
      long handle = -1;
      long object = -1;
      for (int i = 1; i < f.length; i++) {
        String[] kv = f[i].split("=", 2);
        long v = kv.length < 2 || kv[1].equals("max") ? -1 : Units.number(kv[1], "rdma.max");
        if (kv[0].equals("hca_handle")) {
          handle = v;
        } else if (kv[0].equals("hca_object")) {
          object = v;
        }
      }
      if (handle >= 0 || object >= 0) {
        out.add(new RdmaLimit(f[0], handle, object));
      }
    }
    return out;
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    out.rdma(
        fields.contains(LIMITS) ? new RdmaSpec(read(view, view.require("rdma", LIMITS))) : null);
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.rdma(
        spec.rdma() == null
            ? null
            : new RdmaSpec(
                spec.rdma().limits().stream()
                    .map(
                        l ->
                            new RdmaLimit(
                                l.device(),
                                l.hcaHandle() == null ? -1L : l.hcaHandle(),
                                l.hcaObject() == null ? -1L : l.hcaObject()))
                    .filter(l -> l.hcaHandle() >= 0 || l.hcaObject() >= 0)
                    .toList()));
  }
}
