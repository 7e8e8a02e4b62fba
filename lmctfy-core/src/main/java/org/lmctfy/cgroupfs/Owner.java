package org.lmctfy.cgroupfs;

/**
 * The owner of a cgroup's directory or interface file, by numeric ids ({@link CgroupFs#owner}).
 *
 * <pre>{@code
 * boolean mine = fs.owner(h, path, null).uid() == fs.effectiveUid();
 * }</pre>
 *
 * @param uid the user id
 * @param gid the group id
 */
public record Owner(int uid, int gid) {}
