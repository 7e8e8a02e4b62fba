package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.HugetlbSpec;
import org.lmctfy.spec.HugetlbSpec.HugetlbLimit;

/**
 * hugetlb: v1 {@code hugetlb.<size>.limit_in_bytes}, v2 {@code hugetlb.<size>.max}; reserved limits
 * v1 {@code hugetlb.<size>.rsvd.limit_in_bytes}, v2 {@code hugetlb.<size>.rsvd.max}. Page sizes
 * limited now and left out of the list go back to unlimited.
 */
final class HugetlbHandler implements ResourceHandler {
  static final String LIMITS = "hugetlb.limits";

  /** Huge page sizes the kernel names in hugetlb file names. */
  static final List<String> PAGE_SIZES = List.of("64KB", "2MB", "32MB", "512MB", "1GB", "16GB");

  private static final List<Field> FIELDS =
      List.of(
          new Field(
              LIMITS,
              "hugetlb",
              List.of("hugetlb.<size>.limit_in_bytes", "hugetlb.<size>.rsvd.limit_in_bytes"),
              List.of("hugetlb.<size>.max", "hugetlb.<size>.rsvd.max"),
              ContainerSpec::hugetlb));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  @Override
  public void plan(ContainerSpec s, Mode mode, ContainerView view, Planning out) {
    HugetlbSpec spec = s.hugetlb();
    if (spec == null && !(mode == Mode.REPLACE && view.has("hugetlb"))) {
      return;
    }
    Hierarchy h = view.require("hugetlb", "hugetlb");
    boolean v2 = ContainerView.isV2(h);
    List<HugetlbLimit> limits = new ArrayList<>(spec == null ? List.of() : spec.limits());
    if (mode != Mode.CREATE) {
      for (HugetlbLimit now : read(view, h)) {
        if (limits.stream().noneMatch(l -> l.pageSize().equals(now.pageSize()))) {
          limits.add(
              new HugetlbLimit(now.pageSize(), -1, now.reservedLimit() == null ? null : -1L));
        }
      }
    }
    for (HugetlbLimit l : limits) {
      out.writes.add(
          new FileWrite(
              h,
              file(l.pageSize(), v2, false),
              bytes(l.limit(), v2),
              LIMITS,
              "the machine has no huge pages of " + l.pageSize()));
      String rsvd = file(l.pageSize(), v2, true);
      Long reserved = l.reservedLimit();
      if (reserved == null && mode == Mode.REPLACE && view.selfHas(h, rsvd)) {
        reserved = -1L;
      }
      if (reserved != null) {
        boolean lacks =
            mode == Mode.CREATE
                ? view.lacks(h, file(l.pageSize(), v2, false), rsvd)
                : !view.selfHas(h, rsvd);
        if (lacks) {
          throw ContainerView.notOn(h, LIMITS + ".reserved_limit", "this kernel has no " + rsvd);
        }
        out.writes.add(
            new FileWrite(
                h, rsvd, bytes(reserved, v2), LIMITS, "reservation limits came with Linux 5.7"));
      }
    }
  }

  private static String bytes(long value, boolean v2) {
    return v2 ? Units.v2Bytes(value) : Units.v1Bytes(value);
  }

  private static String file(String size, boolean v2, boolean reserved) {
    return "hugetlb." + size + (reserved ? ".rsvd" : "") + (v2 ? ".max" : ".limit_in_bytes");
  }

  /** The page sizes with a finite limit or reserved limit; the reserved one null when unlimited. */
  private static List<HugetlbLimit> read(ContainerView view, Hierarchy h) {
    List<HugetlbLimit> out = new ArrayList<>();
    for (String size : PAGE_SIZES) {
      String file = file(size, ContainerView.isV2(h), false);
      if (view.selfHas(h, file)) {
        long limit = Units.bytes(view.readSelf(h, file), file);
        String rsvdFile = file(size, ContainerView.isV2(h), true);
        long rsvd =
            view.selfHas(h, rsvdFile) ? Units.bytes(view.readSelf(h, rsvdFile), rsvdFile) : -1;
        if (limit >= 0 || rsvd >= 0) {
          out.add(new HugetlbLimit(size, limit, rsvd >= 0 ? rsvd : null));
        }
      }
    }
    return out;
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    out.hugetlb(
        fields.contains(LIMITS)
            ? new HugetlbSpec(read(view, view.require("hugetlb", "hugetlb")))
            : null);
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.hugetlb(
        spec.hugetlb() == null
            ? null
            : new HugetlbSpec(
                spec.hugetlb().limits().stream()
                    .map(
                        l ->
                            new HugetlbLimit(
                                l.pageSize(),
                                l.limit(),
                                l.reservedLimit() == null || l.reservedLimit() < 0
                                    ? null
                                    : l.reservedLimit()))
                    .filter(l -> l.limit() >= 0 || l.reservedLimit() != null)
                    .toList()));
  }
}
