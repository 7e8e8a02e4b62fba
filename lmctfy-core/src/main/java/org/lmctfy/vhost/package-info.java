/**
 * The SPI of virtual hosts (lmctfy's {@code virtual_host}: namespaces, a root, an init): {@link
 * org.lmctfy.vhost.VirtualHosts} makes them and starts processes in them, from a {@link
 * org.lmctfy.vhost.Blueprint}, and names each init by a {@link org.lmctfy.vhost.ProcessId} that a
 * reused pid cannot fake. A {@code CgroupFs} offers one through {@code CgroupFs.virtualHosts()}:
 * the kernel backend's uses bubblewrap and nsenter, the fake of {@code lmctfy-testing} models them.
 *
 * <p>It is apart from the cgroup filesystem because it is another service with values of its own
 * (no spec record: the library turns a container spec's {@code virtual_host} and {@code filesystem}
 * into a blueprint above it); it places its processes in a backend's cgroups, so it speaks {@code
 * org.lmctfy.cgroupfs}'s {@code Hierarchy} and {@code CgroupPath}.
 *
 * <pre>{@code
 * VirtualHosts vh = fs.virtualHosts().orElseThrow();
 * ProcessId init = vh.start(new Blueprint(null, false, null, List.of(), Blueprint.Init.DEFAULT), cgroups);
 * }</pre>
 *
 * @since 0.2
 */
@NullMarked
package org.lmctfy.vhost;

import org.jspecify.annotations.NullMarked;
