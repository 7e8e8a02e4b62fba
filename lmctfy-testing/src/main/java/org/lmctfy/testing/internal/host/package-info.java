/**
 * Not API: which of this project's kernel tests this machine serves ({@link
 * org.lmctfy.testing.internal.host.KernelTestRule}), the facts it decides from ({@link
 * org.lmctfy.testing.internal.host.HostFacts}) and the JUnit condition that applies it to every
 * test ({@link org.lmctfy.testing.internal.host.KernelTestCondition}). May change in any release.
 */
package org.lmctfy.testing.internal.host;
