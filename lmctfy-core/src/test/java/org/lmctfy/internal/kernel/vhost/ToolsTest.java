package org.lmctfy.internal.kernel.vhost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.internal.kernel.vhost.Tools.Tool;

class ToolsTest {
  @Test
  void aMissingToolIsFailedPreconditionNamingItsPackageAndWhereItWasLookedFor(@TempDir Path dir) {
    assertThatThrownBy(() -> Tools.find(Tool.BWRAP, List.of(dir.toString())))
        .isInstanceOf(LmctfyException.class)
        .hasMessageContaining(
            "virtual hosts need bwrap from the package bubblewrap (0.4.0 or later)")
        .hasMessageContaining("no bwrap in " + dir)
        .hasMessageContaining("apt-get install bubblewrap")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.FAILED_PRECONDITION);
    assertThatThrownBy(() -> Tools.find(Tool.CATATONIT, List.of(dir.toString())))
        .hasMessageContaining("catatonit from the package catatonit (0.1.7 or later)");
    assertThatThrownBy(() -> Tools.find(Tool.NSENTER, List.of(dir.toString())))
        .hasMessageContaining("nsenter from the package util-linux");
  }

  @Test
  void aToolOthersCouldChangeIsRefused(@TempDir Path dir) throws Exception {
    Path bwrap = Files.writeString(dir.resolve("bwrap"), "#!/bin/sh\necho bubblewrap 0.8.0\n");
    Files.setPosixFilePermissions(bwrap, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThatThrownBy(() -> Tools.find(Tool.BWRAP, List.of(dir.toString())))
        .hasMessageContaining("refusing " + bwrap.toRealPath())
        .hasMessageContaining("must belong to root and be writable by root alone")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.FAILED_PRECONDITION);
  }

  @Test
  void aToolTooOldIsRefusedNamingItsVersion(@TempDir Path dir) throws Exception {
    assumeTrue(
        Files.getAttribute(dir, "unix:uid").equals(0), "only root can make a file of root's");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path bwrap = Files.writeString(dir.resolve("bwrap"), "#!/bin/sh\necho bubblewrap 0.3.3\n");
    Files.setPosixFilePermissions(bwrap, PosixFilePermissions.fromString("rwxr-xr-x"));

    assertThatThrownBy(() -> Tools.find(Tool.BWRAP, List.of(dir.toString())))
        .hasMessageContaining(bwrap + " is version 0.3.3; lmctfy needs 0.4.0 or later");
    Files.writeString(bwrap, "#!/bin/sh\necho bubblewrap 0.11.1\n");
    assertThat(Tools.find(Tool.BWRAP, List.of(dir.toString()))).isEqualTo(bwrap);
  }

  @Test
  void versionsCompareNumerically() {
    assertThat(Tools.compare("0.11.1", "0.4.0")).isPositive();
    assertThat(Tools.compare("2.38.1", "2.28")).isPositive();
    assertThat(Tools.compare("0.1.7", "0.1.7")).isZero();
    assertThat(Tools.compare("0.1.6", "0.1.7")).isNegative();
    assertThat(Tools.compare("2.28", "2.28.0")).isZero();
  }
}
