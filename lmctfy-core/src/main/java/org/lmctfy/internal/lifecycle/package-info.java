/**
 * Not API: the one internal entry, {@code Containers}, which serves every operation of the facade
 * (the lifecycle, updates and reads, and the processes of a container), under the lock each
 * operation names ({@code ContainerOperation}); and creating, finding, listing and destroying
 * containers so that no failure and no crash ever needs manual intervention.
 *
 * <p>The protocol. A container is one cgroup at the same path in every managed hierarchy (every
 * mounted hierarchy that carries controllers, and the unified one). The first managed hierarchy is
 * the <em>anchor</em>. Before a create or destroy touches anything, it sets an intent marker {@code
 * op.<name>} ({@code creating} or {@code destroying}) on the parent's anchor cgroup; the
 * container's own anchor cgroup carries the ownership marker {@code owner=lmctfy}. Removing the
 * intent is the commit point. So whatever instant a process dies at, the next process sees either a
 * complete container (no intent), or an intent that tells it the cgroups at that path are ours and
 * unfinished, and finishes the destroy or undoes the create. Cgroups at a path with neither intent
 * nor ownership marker are foreign: never removed unless empty and asked for by name.
 */
package org.lmctfy.internal.lifecycle;
