/**
 * Not API: how the kernel backend starts a process inside cgroups ({@code CgroupFs.start}): the
 * launcher that is placed before it runs anything, and the checks of the machine (the program, the
 * directory, the redirected files) made before it starts.
 */
package org.lmctfy.internal.kernel.launch;
