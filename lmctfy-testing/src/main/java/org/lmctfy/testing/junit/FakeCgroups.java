package org.lmctfy.testing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/**
 * Gives each test a fresh {@link FakeCgroupFs} and a {@link org.lmctfy.ContainerApi} over it: as
 * parameters of test, constructor and lifecycle methods, and in non-static fields of those types.
 * The API is closed after the test.
 *
 * <pre>{@code
 * @FakeCgroups
 * class SchedulerTest {
 *   FakeCgroupFs cgroups;
 *   ContainerApi api;
 *
 *   @Test
 *   void leavesNothingBehindWhenTheJobFails() {
 *     cgroups.faults().failAt(3, Errno.ENOSPC);
 *     assertThatThrownBy(() -> new Scheduler(api).start(job)).isInstanceOf(LmctfyException.class);
 *     CgroupAssertions.assertThat(cgroups).hasNoCgroupsButTheRoots();
 *   }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(FakeCgroupsExtension.class)
public @interface FakeCgroups {
  /**
   * The host layout the fake mimics.
   *
   * @return the host layout the fake mimics
   */
  FakeLayout layout() default FakeLayout.SYSTEMD_V2;
}
