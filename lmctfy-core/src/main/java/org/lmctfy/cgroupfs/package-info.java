/**
 * The cgroup filesystem SPI: {@link org.lmctfy.cgroupfs.CgroupFs} and the types it speaks in. The
 * library does all its I/O through it; tools may use it directly.
 */
@NullMarked
package org.lmctfy.cgroupfs;

import org.jspecify.annotations.NullMarked;
