/** Not API: the kernel backend of CgroupFs (discovery, real I/O through libc). */
package org.lmctfy.internal.kernel;
