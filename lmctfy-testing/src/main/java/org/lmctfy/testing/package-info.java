/** Test support: an in-memory cgroupfs that behaves like the kernel, and tools to test with it. */
package org.lmctfy.testing;
