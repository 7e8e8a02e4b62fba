package org.lmctfy.internal.resources;

import org.lmctfy.cgroupfs.Hierarchy;

/**
 * One change of owner of a plan: a cgroup directory ({@code file == null}) or an interface file.
 */
public record Chown(Hierarchy hierarchy, String file, int uid, int gid, String field) {}
