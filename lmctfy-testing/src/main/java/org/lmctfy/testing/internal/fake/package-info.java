/**
 * Not API: the kernel model behind {@code org.lmctfy.testing.FakeCgroupFs}. One class per
 * controller's interface files; {@link org.lmctfy.testing.internal.fake.Kernel} ties them together.
 * May change in any release.
 */
package org.lmctfy.testing.internal.fake;
