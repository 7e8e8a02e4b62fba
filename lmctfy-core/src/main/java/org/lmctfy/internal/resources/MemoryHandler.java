package org.lmctfy.internal.resources;

import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.MemorySpec;

/**
 * memory, in bytes, -1 for unlimited; values are stored rounded down to a page.
 *
 * <ul>
 *   <li>{@code limit}: v1 {@code memory.limit_in_bytes}, v2 {@code memory.max}.
 *   <li>{@code swap_limit} (memory plus swap, as lmctfy): v1 {@code memory.memsw.limit_in_bytes};
 *       v2 {@code memory.swap.max = swap_limit - limit}, read back as {@code swap.max + max}. A
 *       finite swap limit needs a finite memory limit (the spec's, or on DIFF the container's):
 *       else INVALID_ARGUMENT naming both fields, as runc refuses swap without memory. On v2 a DIFF
 *       of only {@code swap_limit} computes {@code swap.max} from the container's {@code
 *       memory.max}, and a DIFF of only {@code limit} rewrites {@code swap.max} so that memory plus
 *       swap stays what it was (as v1's memsw does), refusing a limit above it.
 *   <li>{@code min}: v2 {@code memory.min}; {@code zswap_limit}: v2 {@code memory.zswap.max}.
 *   <li>{@code reservation}: v1 {@code memory.soft_limit_in_bytes}, v2 {@code memory.low}.
 *   <li>{@code high}: v2 {@code memory.high}; {@code oom_group}: v2 {@code memory.oom.group}.
 *   <li>{@code oom_kill_disable}: v1 {@code memory.oom_control}; {@code swappiness}: v1 {@code
 *       memory.swappiness} (REPLACE without it restores the parent's).
 * </ul>
 *
 * <p>v1 refuses a limit above memory+swap, so a raise writes memory+swap first and a cut writes the
 * limit first (as runc does), decided from the values the container has now.
 */
final class MemoryHandler implements ResourceHandler {
  private static final List<Field> FIELDS =
      List.of(
          new Field(
              "memory.limit",
              "memory",
              List.of("memory.limit_in_bytes"),
              List.of("memory.max"),
              s -> memory(s, MemorySpec::limit)),
          new Field(
              "memory.swap_limit",
              "memory",
              List.of("memory.memsw.limit_in_bytes"),
              List.of("memory.swap.max"),
              s -> memory(s, MemorySpec::swapLimit)),
          new Field(
              "memory.reservation",
              "memory",
              List.of("memory.soft_limit_in_bytes"),
              List.of("memory.low"),
              s -> memory(s, MemorySpec::reservation)),
          new Field(
              "memory.high",
              "memory",
              List.of(),
              List.of("memory.high"),
              s -> memory(s, MemorySpec::high)),
          new Field(
              "memory.oom_kill_disable",
              "memory",
              List.of("memory.oom_control"),
              List.of(),
              s -> memory(s, MemorySpec::oomKillDisable)),
          new Field(
              "memory.oom_group",
              "memory",
              List.of(),
              List.of("memory.oom.group"),
              s -> memory(s, MemorySpec::oomGroup)),
          new Field(
              "memory.swappiness",
              "memory",
              List.of("memory.swappiness"),
              List.of(),
              s -> memory(s, MemorySpec::swappiness)),
          new Field(
              "memory.min",
              "memory",
              List.of(),
              List.of("memory.min"),
              s -> memory(s, MemorySpec::min)),
          new Field(
              "memory.zswap_limit",
              "memory",
              List.of(),
              List.of("memory.zswap.max"),
              s -> memory(s, MemorySpec::zswapLimit)));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  private static Object memory(ContainerSpec s, Function<MemorySpec, Object> field) {
    return s.memory() == null ? null : field.apply(s.memory());
  }

  @Override
  public void plan(ContainerSpec spec, Mode mode, ContainerView view, Planning planning) {
    List<FileWrite> out = planning.writes;
    MemorySpec m = spec.memory() == null ? MemorySpec.builder().build() : spec.memory();
    boolean replace = mode == Mode.REPLACE && view.has("memory");
    // not the record's equals: its first call spins method handles, 10 ms of a CLI command's start
    if (!replace
        && m.limit() == null
        && m.swapLimit() == null
        && m.reservation() == null
        && m.high() == null
        && m.oomKillDisable() == null
        && m.oomGroup() == null
        && m.swappiness() == null
        && m.min() == null
        && m.zswapLimit() == null) {
      return;
    }
    Hierarchy h = view.require("memory", "memory");
    if (m.swapLimit() != null && m.swapLimit() >= 0) {
      long limit = m.limit() != null ? m.limit() : mode == Mode.DIFF ? currentLimit(view, h) : -1;
      if (limit < 0) {
        throw Units.invalid(
            "memory.swap_limit",
            m.swapLimit(),
            "needs a finite memory.limit (swap_limit is memory "
                + "plus swap; the container's memory.limit is "
                + (m.limit() != null || mode == Mode.DIFF ? "unlimited" : "not given, so unlimited")
                + ")");
      }
      if (m.limit() == null && m.swapLimit() < limit) {
        throw Units.invalid(
            "memory.swap_limit",
            m.swapLimit(),
            "is below the container's memory.limit of "
                + limit
                + " bytes: swap_limit is memory plus swap");
      }
    }
    if (ContainerView.isV2(h)) {
      planV2(m, mode, view, h, out);
    } else {
      planV1(m, mode, view, h, out);
    }
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    out.memory(read(view, fields));
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.memory(anyOf(given) ? normalise(spec.memory(), view) : null);
  }

  private static void planV1(
      MemorySpec m, Mode mode, ContainerView view, Hierarchy h, List<FileWrite> out) {
    boolean replace = mode == Mode.REPLACE; // h is there: a REPLACE resets its files
    if (m.high() != null) {
      throw ContainerView.notOn(
          h, "memory.high", "v1 has no memory.high (use limit and reservation)");
    }
    if (m.min() != null) {
      throw ContainerView.notOn(h, "memory.min", "v1 has no memory.min (use reservation)");
    }
    if (m.zswapLimit() != null) {
      throw ContainerView.notOn(h, "memory.zswap_limit", "v1 has no memory.zswap.max");
    }
    if (m.oomGroup() != null) {
      throw ContainerView.notOn(h, "memory.oom_group", "v1 has no memory.oom.group");
    }
    FileWrite limit =
        m.limit() != null || replace
            ? new FileWrite(
                h, "memory.limit_in_bytes", Units.v1Bytes(or(m.limit(), -1)), "memory.limit")
            : null;
    FileWrite swap = null;
    if (m.swapLimit() != null || replace && view.parentHas(h, "memory.memsw.limit_in_bytes")) {
      if (!view.parentHas(h, "memory.memsw.limit_in_bytes")) {
        throw ContainerView.notOn(
            h,
            "memory.swap_limit",
            "this kernel has no memory.memsw.limit_in_bytes (swap accounting is off)");
      }
      swap =
          new FileWrite(
              h,
              "memory.memsw.limit_in_bytes",
              Units.v1Bytes(or(m.swapLimit(), -1)),
              "memory.swap_limit");
    }
    if (limit != null
        && swap == null
        && mode == Mode.DIFF
        && view.parentHas(h, "memory.memsw.limit_in_bytes")
        && raises(limit, view, h)) {
      throw Units.invalid(
          "memory.limit",
          m.limit(),
          "is above the container's memory.swap_limit (memory plus swap) of "
              + view.readSelf(h, "memory.memsw.limit_in_bytes")
              + " bytes: give a swap_limit at least as high with it");
    }
    if (limit != null && swap != null && mode != Mode.CREATE && raises(limit, view, h)) {
      out.add(swap);
      out.add(limit);
    } else {
      addIf(out, limit);
      addIf(out, swap);
    }
    if (m.reservation() != null || replace) {
      out.add(
          new FileWrite(
              h,
              "memory.soft_limit_in_bytes",
              Units.v1Bytes(or(m.reservation(), -1)),
              "memory.reservation"));
    }
    if (m.oomKillDisable() != null || replace) {
      out.add(
          new FileWrite(
              h,
              "memory.oom_control",
              Boolean.TRUE.equals(m.oomKillDisable()) ? "1" : "0",
              "memory.oom_kill_disable"));
    }
    if (m.swappiness() != null || replace) {
      String value =
          m.swappiness() != null
              ? m.swappiness().toString()
              : view.readParent(h, "memory.swappiness");
      out.add(new FileWrite(h, "memory.swappiness", value, "memory.swappiness"));
    }
  }

  /** Whether the new limit is above the container's memory+swap now (then memsw goes first). */
  private static boolean raises(FileWrite limit, ContainerView view, Hierarchy h) {
    long now =
        Units.bytes(view.readSelf(h, "memory.memsw.limit_in_bytes"), "memory.memsw.limit_in_bytes");
    long wanted = Long.parseLong(limit.value());
    return now >= 0 && (wanted < 0 || wanted > now);
  }

  private static void planV2(
      MemorySpec m, Mode mode, ContainerView view, Hierarchy h, List<FileWrite> out) {
    boolean replace = mode == Mode.REPLACE; // h is there: a REPLACE resets its files
    if (m.oomKillDisable() != null) {
      throw ContainerView.notOn(
          h,
          "memory.oom_kill_disable",
          "v2 cannot disable the OOM killer (use memory.high, oom_group)");
    }
    if (m.swappiness() != null) {
      throw ContainerView.notOn(h, "memory.swappiness", "v2 has no per-cgroup swappiness");
    }
    if (m.limit() != null || replace) {
      out.add(new FileWrite(h, "memory.max", Units.v2Bytes(or(m.limit(), -1)), "memory.limit"));
    }
    if (m.swapLimit() != null || replace) {
      long swap = or(m.swapLimit(), -1);
      long limit = m.limit() != null ? m.limit() : mode == Mode.DIFF ? currentLimit(view, h) : -1;
      out.add(
          new FileWrite(
              h,
              "memory.swap.max",
              swap < 0 ? "max" : Long.toString(swap - limit),
              "memory.swap_limit"));
    } else if (m.limit() != null && mode == Mode.DIFF && view.selfHas(h, "memory.swap.max")) {
      long swapMax = Units.bytes(view.readSelf(h, "memory.swap.max"), "memory.swap.max");
      long limitNow = currentLimit(view, h);
      if (swapMax >= 0 && limitNow >= 0) { // keep memory plus swap as it is
        long both = swapMax + limitNow;
        if (m.limit() < 0 || m.limit() > both) {
          throw Units.invalid(
              "memory.limit",
              m.limit(),
              "is above the container's memory.swap_limit (memory plus "
                  + "swap) of "
                  + both
                  + " bytes: give a swap_limit at least as high with it");
        }
        out.add(
            new FileWrite(
                h, "memory.swap.max", Long.toString(both - m.limit()), "memory.swap_limit"));
      }
    }
    if (m.reservation() != null || replace) {
      out.add(
          new FileWrite(
              h,
              "memory.low",
              m.reservation() == null ? "0" : Units.v2Bytes(m.reservation()),
              "memory.reservation"));
    }
    if (m.min() != null || replace) {
      out.add(
          new FileWrite(
              h, "memory.min", m.min() == null ? "0" : Units.v2Bytes(m.min()), "memory.min"));
    }
    if (m.high() != null || replace) {
      out.add(new FileWrite(h, "memory.high", Units.v2Bytes(or(m.high(), -1)), "memory.high"));
    }
    if (m.zswapLimit() != null || replace && view.selfHas(h, "memory.zswap.max")) {
      boolean lacks =
          mode == Mode.CREATE
              ? view.lacks(h, "memory.max", "memory.zswap.max")
              : !view.selfHas(h, "memory.zswap.max");
      if (lacks) {
        throw ContainerView.notOn(
            h, "memory.zswap_limit", "this kernel has no memory.zswap.max (built without zswap)");
      }
      out.add(
          new FileWrite(
              h,
              "memory.zswap.max",
              Units.v2Bytes(or(m.zswapLimit(), -1)),
              "memory.zswap_limit",
              "built without zswap"));
    }
    if (m.oomGroup() != null || replace) {
      out.add(
          new FileWrite(
              h,
              "memory.oom.group",
              Boolean.TRUE.equals(m.oomGroup()) ? "1" : "0",
              "memory.oom_group"));
    }
  }

  /** The container's memory limit now (-1 unlimited, also before it exists). */
  private static long currentLimit(ContainerView view, Hierarchy h) {
    String file = ContainerView.isV2(h) ? "memory.max" : "memory.limit_in_bytes";
    return view.selfHas(h, file) ? Units.bytes(view.readSelf(h, file), file) : -1;
  }

  static MemorySpec read(ContainerView view, Set<String> fields) {
    if (fields.stream().noneMatch(f -> f.startsWith("memory."))) {
      return null;
    }
    Hierarchy h = view.require("memory", "memory");
    boolean v2 = ContainerView.isV2(h);
    Long limit =
        fields.contains("memory.limit")
            ? bytes(view, h, v2 ? "memory.max" : "memory.limit_in_bytes")
            : null;
    Long swap = null;
    if (fields.contains("memory.swap_limit")) {
      if (v2) {
        long s = bytes(view, h, "memory.swap.max");
        long l = bytes(view, h, "memory.max");
        swap = s < 0 || l < 0 ? -1 : s + l;
      } else {
        swap = bytes(view, h, "memory.memsw.limit_in_bytes");
      }
    }
    Long reservation =
        fields.contains("memory.reservation")
            ? bytes(view, h, v2 ? "memory.low" : "memory.soft_limit_in_bytes")
            : null;
    Long high = fields.contains("memory.high") ? bytes(view, h, "memory.high") : null;
    Boolean oomKillDisable =
        fields.contains("memory.oom_kill_disable")
            ? Units.keyed(
                    view.readSelf(h, "memory.oom_control"),
                    "oom_kill_disable",
                    "memory.oom_control")
                == 1
            : null;
    Boolean oomGroup =
        fields.contains("memory.oom_group")
            ? Units.number(view.readSelf(h, "memory.oom.group"), "memory.oom.group") == 1
            : null;
    Integer swappiness =
        fields.contains("memory.swappiness")
            ? (int) Units.number(view.readSelf(h, "memory.swappiness"), "memory.swappiness")
            : null;
    Long min = fields.contains("memory.min") ? bytes(view, h, "memory.min") : null;
    Long zswap = fields.contains("memory.zswap_limit") ? bytes(view, h, "memory.zswap.max") : null;
    return new MemorySpec(
        limit, swap, reservation, high, oomKillDisable, oomGroup, swappiness, min, zswap);
  }

  private static long bytes(ContainerView view, Hierarchy h, String file) {
    return Units.bytes(view.readSelf(h, file), file);
  }

  static MemorySpec normalise(MemorySpec m, ContainerView view) {
    boolean v2 = view.find("memory").map(ContainerView::isV2).orElse(false);
    Long swap = m.swapLimit();
    if (swap != null && v2 && swap >= 0 && m.limit() != null && m.limit() >= 0) {
      swap = Units.pages(swap - m.limit()) + Units.pages(m.limit());
    } else if (swap != null) {
      swap = Units.pages(swap);
    }
    return new MemorySpec(
        pages(m.limit()),
        swap,
        pages(m.reservation()),
        pages(m.high()),
        m.oomKillDisable(),
        m.oomGroup(),
        m.swappiness(),
        pages(m.min()),
        pages(m.zswapLimit()));
  }

  private static Long pages(Long bytes) {
    return bytes == null ? null : Units.pages(bytes);
  }

  private static long or(Long value, long otherwise) {
    return value == null ? otherwise : value;
  }

  private static void addIf(List<FileWrite> out, FileWrite w) {
    if (w != null) {
      out.add(w);
    }
  }
}
