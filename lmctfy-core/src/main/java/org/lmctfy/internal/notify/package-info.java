/**
 * Notifications: one {@link org.lmctfy.internal.notify.Notifier} per ContainerApi, one thread per
 * registration waiting on a {@link org.lmctfy.cgroupfs.CgroupWatch} and re-reading the kernel's
 * files on each wake-up. Not API.
 */
package org.lmctfy.internal.notify;
