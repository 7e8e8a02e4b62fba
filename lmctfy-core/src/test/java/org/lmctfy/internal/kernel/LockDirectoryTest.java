package org.lmctfy.internal.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LockDirectoryTest {
  @Test
  void rootLocksInRunWhateverItsEnvironment() {
    assertThat(KernelCgroupFs.lockDirectory(0, "/home/x/run"))
        .isEqualTo(Path.of("/run/lmctfy/locks"));
  }

  @Test
  void anotherUserLocksInItsRuntimeDirectory() {
    assertThat(KernelCgroupFs.lockDirectory(64999, "/run/user/64999"))
        .isEqualTo(Path.of("/run/user/64999/lmctfy/locks"));
  }

  @Test
  void anotherUserWithoutARuntimeDirectoryLocksInADirectoryOfItsOwnInTmp() {
    assertThat(KernelCgroupFs.lockDirectory(64999, null)).isEqualTo(Path.of("/tmp/lmctfy-64999"));
    assertThat(KernelCgroupFs.lockDirectory(64999, "relative"))
        .isEqualTo(Path.of("/tmp/lmctfy-64999"));
  }
}
