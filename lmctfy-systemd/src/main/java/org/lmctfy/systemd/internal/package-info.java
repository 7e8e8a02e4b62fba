/** Not API: the D-Bus types of systemd's Manager, and the connection that speaks them. */
package org.lmctfy.systemd.internal;
