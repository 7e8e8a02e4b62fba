/**
 * Not API: the kernel backend's virtual hosts (lmctfy's namespaces), made with bubblewrap and
 * joined with util-linux's nsenter, both started by the launcher that places itself in the cgroups
 * first.
 */
package org.lmctfy.internal.kernel.vhost;
