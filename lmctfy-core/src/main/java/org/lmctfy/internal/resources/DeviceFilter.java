package org.lmctfy.internal.resources;

import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.DeviceSpec;

/**
 * A cgroup v2 device filter to set: {@code rules} (DENY ALL then ALLOW rules, merged per device),
 * or null to remove the filter (ALLOW ALL).
 *
 * @param unified the unified hierarchy
 * @param rules the rules, or null for none
 */
public record DeviceFilter(Hierarchy unified, DeviceSpec rules) {}
