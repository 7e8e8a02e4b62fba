/**
 * The SPI of systemd's D-Bus API as lmctfy's systemd driver speaks it: {@link
 * org.lmctfy.systemdbus.SystemdConnector} connects to a manager (PID 1, or a user's own), {@link
 * org.lmctfy.systemdbus.SystemdManager} is the few calls of {@code
 * org.freedesktop.systemd1.Manager} the driver makes (one transient service per API, a scope for a
 * user's own process, their jobs), and {@link org.lmctfy.systemdbus.SystemdException} a D-Bus error
 * by name.
 *
 * <p>It is apart from the cgroup filesystem ({@code org.lmctfy.cgroupfs}, whose {@code CgroupPath}
 * it uses for the units' cgroups) because a backend of one need not have the other: the module
 * {@code lmctfy-systemd} implements it over D-Bus (found by {@code ContainerApi.open()} through
 * {@link java.util.ServiceLoader}), {@code lmctfy-testing}'s {@code FakeSystemd} in memory over a
 * {@code FakeCgroupFs}; {@code ContainerApi.open(CgroupFs, SystemdConnector, ApiOptions)} takes
 * any. Its name is not {@code org.lmctfy.systemd}, which the module {@code lmctfy-systemd} owns (a
 * package belongs to one module).
 *
 * <pre>{@code
 * try (ContainerApi api = ContainerApi.open(fs, FakeSystemd.on(fs), ApiOptions.DEFAULTS)) {
 *   api.create("/job", spec);                 // in /system.slice/lmctfy.service/job
 * }
 * }</pre>
 *
 * @since 0.2
 */
@NullMarked
package org.lmctfy.systemdbus;

import org.jspecify.annotations.NullMarked;
