/**
 * Not API: the drivers that choose an API's root container and keep it usable. The cgroupfs driver
 * takes the cgroups as they are (and moves the processes of a delegated default root into a leaf);
 * the systemd driver asks a systemd manager for a delegated transient service through the {@link
 * org.lmctfy.systemdbus.SystemdConnector} SPI. One choice, in {@link
 * org.lmctfy.internal.driver.Drivers}.
 */
package org.lmctfy.internal.driver;
