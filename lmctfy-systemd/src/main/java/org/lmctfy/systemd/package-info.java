/**
 * The systemd driver's D-Bus side: {@link org.lmctfy.systemd.DbusSystemdConnector}, which {@code
 * ContainerApi.open()} finds with {@link java.util.ServiceLoader} when this module is on the class
 * or module path. Depend on {@code org.lmctfy:lmctfy-systemd} (runtime scope is enough) on systemd
 * machines; nothing else is needed.
 */
package org.lmctfy.systemd;
