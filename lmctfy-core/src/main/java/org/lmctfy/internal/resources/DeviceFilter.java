package org.lmctfy.internal.resources;

import java.util.List;
import org.lmctfy.cgroupfs.DeviceRule;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * A cgroup v2 device filter to set: {@code rules}, the devices a DENY ALL spec allows (merged per
 * device), or null to remove the filter (ALLOW ALL).
 *
 * @param unified the unified hierarchy
 * @param rules the devices allowed, or null for no filter
 */
public record DeviceFilter(Hierarchy unified, List<DeviceRule> rules) {}
