package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.internal.jfr.Flight;
import org.lmctfy.internal.lifecycle.Containers;
import org.lmctfy.internal.lifecycle.RootKeeper;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.internal.notify.Notifier;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The lock files on this machine's filesystem: symlinks refused, explicit modes, a deadline that
 * names the holder, one lock per cgroup whatever the API's root, and directories of one's own.
 */
@Tag("kernel")
class KernelLockTest {
  private Path temp;

  @BeforeEach
  void makeTemp() throws Exception {
    temp =
        Files.createTempDirectory(
            "lmctfy-locktest",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
  }

  @AfterEach
  void removeTemp() throws Exception {
    if (temp == null) {
      return;
    }
    try (Stream<Path> all = Files.walk(temp)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Test
  void aSymlinkPlantedAtTheLockFileIsRefusedAndItsTargetNeverCreated() throws Exception {
    Path dir = temp.resolve("locks");
    Files.createDirectory(
        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path target = temp.resolve("owned-by-the-attacker");
    Files.createSymbolicLink(dir.resolve(ContainerLocks.FILE), target);

    assertThatThrownBy(() -> new ContainerLocks(dir, Duration.ofSeconds(1)).lock("/job", "/job"))
        .isInstanceOfSatisfying(
            LmctfyException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
              assertThat(e.getMessage())
                  .contains(dir.resolve(ContainerLocks.FILE).toString(), "symbolic link");
            });
    assertThat(Files.exists(target, LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  @Test
  void theLockFileOfAnotherUserIsRefused() throws Exception {
    Path dir = temp.resolve("locks");
    Files.createDirectory(dir);
    Path planted = Files.createFile(dir.resolve(ContainerLocks.FILE));
    Files.setAttribute(planted, "unix:uid", 64999);

    assertThatThrownBy(() -> new ContainerLocks(dir, Duration.ofSeconds(1)).lock("/job", "/job"))
        .isInstanceOfSatisfying(
            LmctfyException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
              assertThat(e.getMessage()).contains(planted.toString(), "uid 64999");
            });
  }

  @Test
  void directoriesAre0700AndFiles0600UnderAnUmaskOf000() throws Exception {
    Path dir = temp.resolve("run/lmctfy/locks");
    Path output = temp.resolve("probe.out");
    Process probe = LockProbe.start(output, "000", dir.toString(), "/job", "60000");
    try {
      LockProbe.awaitLocked(probe, output);
      for (Path d : List.of(temp.resolve("run"), temp.resolve("run/lmctfy"), dir)) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(d)))
            .as("%s", d)
            .isEqualTo("rwx------");
      }
      assertThat(
              PosixFilePermissions.toString(
                  Files.getPosixFilePermissions(dir.resolve(ContainerLocks.FILE))))
          .isEqualTo("rw-------");
    } finally {
      probe.destroyForcibly().waitFor();
    }
  }

  @Test
  void aLockFileMadeUnderAnUmaskOf777IsUsableAndGets0600() throws Exception {
    Path dir = temp.resolve("locks");
    Path output = temp.resolve("probe.out");
    Process probe = LockProbe.start(output, "777", dir.toString(), "/job", "60000");
    try {
      LockProbe.awaitLocked(probe, output);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
          .isEqualTo("rwx------");
      assertThat(
              PosixFilePermissions.toString(
                  Files.getPosixFilePermissions(dir.resolve(ContainerLocks.FILE))))
          .isEqualTo("rw-------");
    } finally {
      probe.destroyForcibly().waitFor();
    }
  }

  @Test
  void aLockDirectoryOthersMayWriteIsRefused() throws Exception {
    Path dir = Files.createDirectory(temp.resolve("locks"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThatThrownBy(() -> new ContainerLocks(dir, Duration.ofSeconds(1)).lock("/job", "/job"))
        .isInstanceOfSatisfying(
            LmctfyException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
              assertThat(e.getMessage()).contains(dir.toString(), "777");
            });
    assertThat(Files.list(dir).toList()).isEmpty();
  }

  @Test
  void aWaitForALockHeldByAnotherProcessEndsAtTheDeadlineNamingTheContainerAndThePid()
      throws Exception {
    Path dir = temp.resolve("locks");
    Path output = temp.resolve("probe.out");
    Process probe = LockProbe.start(output, "022", dir.toString(), "/held", "60000");
    try {
      while (!Files.exists(output)
          || !Files.readString(output, StandardCharsets.UTF_8).contains("locked")) {
        assertThat(probe.isAlive())
            .as("probe: %s", Files.exists(output) ? Files.readString(output) : "")
            .isTrue();
        Thread.sleep(10);
      }
      assertThatThrownBy(
              () -> new ContainerLocks(dir, Duration.ofMillis(300)).lock("/held", "/held"))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
                assertThat(e.getMessage()).contains("container /held", "process " + probe.pid());
              });
    } finally {
      probe.destroyForcibly().waitFor();
    }
    // the holder is gone: the kernel dropped its lock
    new ContainerLocks(dir, Duration.ofSeconds(5)).lock("/held", "/held").close();
  }

  @Test
  void aWaitForALockHeldByAnotherThreadEndsAtTheDeadlineNamingTheThread() throws Exception {
    ContainerLocks locks = new ContainerLocks(temp.resolve("locks"), Duration.ofMillis(200));
    try (ContainerLocks.Held held = locks.lock("/held", "/held")) {
      CompletableFuture<Throwable> other =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  locks.lock("/held", "/held").close();
                  return null;
                } catch (RuntimeException e) {
                  return e;
                }
              });
      assertThat(other.get(10, TimeUnit.SECONDS))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
                assertThat(e.getMessage())
                    .contains("container /held", Thread.currentThread().getName());
              });
    }
  }

  @Test
  void twoApisWithDifferentRootsExcludeEachOtherOnOneCgroup() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs)) {
      Containers outer =
          new Containers(
              fs,
              scratch.path(),
              Duration.ofSeconds(5),
              Duration.ofMillis(200),
              new Notifier(Flight.OFF),
              Flight.OFF,
              RootKeeper.CGROUPS_AS_THEY_ARE);
      outer.create(outer.resolve("/k"), ContainerSpec.parse(""));
      Containers inner =
          new Containers(
              fs,
              scratch.path().resolve("k"),
              Duration.ofSeconds(5),
              Duration.ofMillis(200),
              new Notifier(Flight.OFF),
              Flight.OFF,
              RootKeeper.CGROUPS_AS_THEY_ARE);
      try (ContainerLocks.Held held = outer.lock(outer.resolve("/k/c"))) {
        assertThatThrownBy(() -> inner.create(inner.resolve("/c"), ContainerSpec.parse("")))
            .isInstanceOfSatisfying(
                LmctfyException.class,
                e -> {
                  assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
                  assertThat(e.getMessage())
                      .contains("container /c", scratch.path().resolve("k").resolve("c").value());
                });
      }
      assertThat(inner.exists(inner.resolve("/c"))).isFalse();
      outer.destroy(outer.resolve("/k"));
    }
  }
}
