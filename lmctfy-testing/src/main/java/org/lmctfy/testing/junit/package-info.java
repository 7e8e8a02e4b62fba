/**
 * JUnit 5 glue: the {@link org.lmctfy.testing.junit.FakeCgroups @FakeCgroups} extension that
 * injects a fresh fake, and {@link org.lmctfy.testing.junit.ScratchCgroups} for tests on this
 * machine's kernel (skipped with the reason where it is not usable).
 */
package org.lmctfy.testing.junit;
