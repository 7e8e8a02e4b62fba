package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.DeviceSpec;
import org.lmctfy.spec.DeviceSpec.DeviceRule;
import org.lmctfy.spec.DeviceSpec.Permission;
import org.lmctfy.spec.DeviceSpec.Type;

/**
 * device: the rules are either {@code ALLOW ALL rwm}, or {@code DENY ALL rwm} followed by the
 * devices allowed, because that is what {@code devices.list} can report back (deny exceptions to
 * allow-all are not listed by the kernel). On v1 written as {@code a} to {@code devices.deny} then
 * each rule to {@code devices.allow}; read back from {@code devices.list}, where the kernel merges
 * the access letters of one device. On v2 (no v1 devices hierarchy) the rules, merged the same way,
 * become the cgroup's device filter ({@link org.lmctfy.cgroupfs.CgroupFs#setDeviceFilter}, an eBPF
 * program on the kernel); {@code ALLOW ALL rwm} is a cgroup without one.
 */
final class DeviceHandler implements ResourceHandler {
  private static final DeviceRule ALLOW_ALL =
      new DeviceRule(Permission.ALLOW, Type.ALL, -1, -1, "rwm");
  private static final DeviceRule DENY_ALL =
      new DeviceRule(Permission.DENY, Type.ALL, -1, -1, "rwm");

  static final String RULES = "device.rules";

  private static final List<Field> FIELDS =
      List.of(
          new Field(
              RULES,
              null,
              List.of("devices.allow", "devices.deny"),
              List.of(),
              ContainerSpec::device));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  /**
   * Plans the v1 writes; on v2 the device filter to set (rules null for ALLOW ALL: none). REPLACE
   * without a device section resets v1's rules here and v2's filter in {@link #knowing}, where it
   * is known whether there is one.
   */
  @Override
  public void plan(ContainerSpec spec, Mode mode, ContainerView view, Planning planning) {
    DeviceSpec device = spec.device();
    List<FileWrite> out = planning.writes;
    if (device == null && !(mode == Mode.REPLACE && view.find("devices").isPresent())) {
      return;
    }
    List<DeviceRule> rules = device == null ? List.of(ALLOW_ALL) : device.rules();
    validate(rules);
    Hierarchy h = view.find("devices").orElse(null);
    if (h == null) {
      Hierarchy unified =
          view.unified()
              .orElseThrow(
                  () ->
                      new LmctfyException(
                          ErrorCode.UNIMPLEMENTED,
                          "device.rules need the v1 devices controller or a cgroup v2 hierarchy, and this machine mounts neither"));
      if (rules.equals(List.of(ALLOW_ALL))) {
        planning.devices = new DeviceFilter(unified, null);
        return;
      }
      if (!view.fs().capabilities().contains(CgroupFs.Capability.DEVICE_FILTERS)) {
        throw new LmctfyException(
            ErrorCode.UNIMPLEMENTED,
            "device.rules on cgroup v2 need a device filter, and this "
                + "CgroupFs has none (CgroupFs.Capability.DEVICE_FILTERS)");
      }
      planning.devices = new DeviceFilter(unified, allowed(normalise(device)));
      return;
    }
    if (rules.get(0).permission() == Permission.ALLOW) {
      out.add(new FileWrite(h, "devices.allow", "a", "device.rules"));
      return;
    }
    out.add(new FileWrite(h, "devices.deny", "a", "device.rules"));
    for (DeviceRule r : rules.subList(1, rules.size())) {
      out.add(new FileWrite(h, "devices.allow", r.kernelRule(), "device.rules"));
    }
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    out.device(read(view, fields));
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.device(spec.device() == null ? null : normalise(spec.device()));
  }

  /**
   * The planned v2 filter ({@code planned}) for a container that has a device filter of lmctfy's
   * ({@code recorded} holds device.rules) or not: removing none is no call at all (a tenant without
   * CAP_BPF may give ALLOW ALL), and REPLACE without a device section removes one it has.
   */
  static DeviceFilter knowing(
      DeviceFilter planned, Set<String> recorded, Mode mode, ContainerView view) {
    boolean has = recorded.contains(RULES);
    if (planned != null && planned.rules() == null && !has) {
      return null;
    } else if (planned == null && has && mode == Mode.REPLACE && view.find("devices").isEmpty()) {
      return view.unified().map(u -> new DeviceFilter(u, null)).orElse(null);
    }
    return planned;
  }

  static void validate(List<DeviceRule> rules) {
    if (rules.isEmpty()) {
      throw Units.invalid(
          "device.rules", "[]", "is empty: give ALLOW ALL, or DENY ALL followed by ALLOW rules");
    }
    DeviceRule first = rules.get(0);
    if (first.type() != Type.ALL
        || !first.access().equals("rwm")
        || first.permission() == Permission.ALLOW && rules.size() > 1) {
      throw Units.invalid(
          "device.rules",
          "[0] " + first.kernelRule(),
          "must be ALLOW ALL \"rwm\" alone, or DENY ALL "
              + "\"rwm\" followed by ALLOW rules (the kernel cannot report deny exceptions to allow-all)");
    }
    for (int i = 1; i < rules.size(); i++) {
      if (rules.get(i).permission() != Permission.ALLOW || rules.get(i).type() == Type.ALL) {
        throw Units.invalid(
            "device.rules",
            "[" + i + "] " + rules.get(i).kernelRule(),
            "must ALLOW one device type (after DENY ALL, only ALLOW rules for block or char devices count)");
      }
    }
  }

  static DeviceSpec read(ContainerView view, Set<String> fields) {
    if (!fields.contains("device.rules")) {
      return null;
    }
    if (view.find("devices").isEmpty() && view.unified().isPresent()) {
      if (!view.fs().capabilities().contains(CgroupFs.Capability.DEVICE_FILTERS)) {
        return new DeviceSpec(List.of(ALLOW_ALL)); // no filter can have been set
      }
      Hierarchy unified = view.unified().get();
      try {
        return view.fs()
            .deviceFilter(unified, view.self())
            .map(DeviceHandler::denyAllBut)
            .orElse(new DeviceSpec(List.of(ALLOW_ALL)));
      } catch (java.io.IOException e) {
        throw org.lmctfy.internal.errors.Errors.of(
            "read device.rules (the device filter of " + unified.display(view.self(), null) + ")",
            e);
      }
    }
    Hierarchy h = view.require("devices", "device.rules");
    String list = view.readSelf(h, "devices.list");
    if (list.equals("a *:* rwm")) {
      return new DeviceSpec(List.of(ALLOW_ALL));
    }
    List<org.lmctfy.cgroupfs.DeviceRule> allowed = new ArrayList<>();
    for (String line : list.split("\n")) {
      if (!line.isBlank()) {
        try {
          allowed.add(org.lmctfy.cgroupfs.DeviceRule.parse(line));
        } catch (IllegalArgumentException e) {
          throw new LmctfyException(
              ErrorCode.INTERNAL,
              "unexpected line \"" + line + "\" in " + h.display(view.self(), "devices.list"),
              e);
        }
      }
    }
    return denyAllBut(allowed);
  }

  /**
   * The devices a normalised DENY ALL spec allows, as the device filter of {@link
   * org.lmctfy.cgroupfs.CgroupFs} takes them.
   */
  private static List<org.lmctfy.cgroupfs.DeviceRule> allowed(DeviceSpec normalised) {
    List<org.lmctfy.cgroupfs.DeviceRule> out = new ArrayList<>();
    for (DeviceRule r : normalised.rules().subList(1, normalised.rules().size())) {
      out.add(
          new org.lmctfy.cgroupfs.DeviceRule(
              r.type() == Type.BLOCK
                  ? org.lmctfy.cgroupfs.DeviceRule.Type.BLOCK
                  : org.lmctfy.cgroupfs.DeviceRule.Type.CHAR,
              r.major(),
              r.minor(),
              r.access()));
    }
    return List.copyOf(out);
  }

  /** The spec of a device filter that allows {@code allowed}: DENY ALL, then an ALLOW rule each. */
  private static DeviceSpec denyAllBut(List<org.lmctfy.cgroupfs.DeviceRule> allowed) {
    List<DeviceRule> rules = new ArrayList<>();
    rules.add(DENY_ALL);
    for (org.lmctfy.cgroupfs.DeviceRule r : allowed) {
      rules.add(
          new DeviceRule(
              Permission.ALLOW,
              r.type() == org.lmctfy.cgroupfs.DeviceRule.Type.BLOCK ? Type.BLOCK : Type.CHAR,
              r.major(),
              r.minor(),
              r.access()));
    }
    return new DeviceSpec(rules);
  }

  /** The rules as devices.list reports them: one entry per device, access letters merged. */
  static DeviceSpec normalise(DeviceSpec device) {
    validate(device.rules());
    if (device.rules().get(0).permission() == Permission.ALLOW) {
      return new DeviceSpec(List.of(ALLOW_ALL));
    }
    Map<String, DeviceRule> merged = new LinkedHashMap<>();
    for (DeviceRule r : device.rules().subList(1, device.rules().size())) {
      String key = r.type() + " " + r.major() + ":" + r.minor();
      DeviceRule before = merged.get(key);
      String access = before == null ? r.access() : before.access() + r.access();
      StringBuilder letters = new StringBuilder();
      for (char c : "rwm".toCharArray()) {
        if (access.indexOf(c) >= 0) {
          letters.append(c);
        }
      }
      merged.put(
          key,
          new DeviceRule(Permission.ALLOW, r.type(), r.major(), r.minor(), letters.toString()));
    }
    List<DeviceRule> rules = new ArrayList<>();
    rules.add(DENY_ALL);
    rules.addAll(merged.values());
    return new DeviceSpec(rules);
  }
}
