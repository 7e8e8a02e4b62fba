/**
 * Notifications: one {@link org.lmctfy.internal.notify.Notifier} per ContainerApi; while any
 * registration lives, one {@link org.lmctfy.cgroupfs.CgroupWatcher} for all of them, a watch thread
 * re-reading the kernel's files of the registrations that signalled, and a delivery thread calling
 * the listeners. Not API.
 */
package org.lmctfy.internal.notify;
