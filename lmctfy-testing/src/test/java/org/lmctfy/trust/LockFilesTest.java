package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ApiOptions;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * One lock file per lock directory, whatever the names locked: nothing piles up, for a create, a
 * failed create, a destroy or a destroy of a name that does not exist; locks on it exclude other
 * open files of it (other APIs, other processes) and are let go with them.
 */
@Tag("kernel")
class LockFilesTest {
  private Path temp;

  @BeforeEach
  void makeTemp() throws IOException {
    temp =
        Files.createTempDirectory(
            "lmctfy-lockfiles",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
  }

  @AfterEach
  void removeTemp() throws IOException {
    if (temp == null) {
      return;
    }
    try (Stream<Path> all = Files.walk(temp)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static List<String> files(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void everyNameLocksAByteOfOneFile() throws IOException {
    Path dir = temp.resolve("locks");
    try (ContainerLocks locks = new ContainerLocks(dir, Duration.ofSeconds(5))) {
      try (ContainerLocks.Held a = locks.lock("/a", "/a");
          ContainerLocks.Held b = locks.lock("/a/b", "/a/b");
          ContainerLocks.Held again = locks.lock("/a/b", "/a/b")) { // reentrant
        assertThat(files(dir)).containsExactly(ContainerLocks.FILE);
      }
      for (int i = 0; i < 100; i++) {
        locks.lock("/job-" + i, "/job-" + i).close();
      }
      assertThat(files(dir)).containsExactly(ContainerLocks.FILE);
    }
  }

  @Test
  void anotherOpenOfTheFileWaitsForTheHolderAndTakesTheLockWhenItIsLetGo() throws Exception {
    Path dir = temp.resolve("locks");
    // three APIs' locks in one JVM: three open files, excluded by the kernel's locks alone
    try (ContainerLocks first = new ContainerLocks(dir, Duration.ofSeconds(10));
        ContainerLocks second = new ContainerLocks(dir, Duration.ofSeconds(10));
        ContainerLocks third = new ContainerLocks(dir, Duration.ofMillis(300))) {
      CountDownLatch secondHolds = new CountDownLatch(1);
      CountDownLatch secondMayGo = new CountDownLatch(1);
      CompletableFuture<Void> waiter;
      try (ContainerLocks.Held held = first.lock("/job", "/job")) {
        waiter =
            CompletableFuture.runAsync(
                () -> {
                  try (ContainerLocks.Held h = second.lock("/job", "/job")) {
                    secondHolds.countDown();
                    secondMayGo.await(10, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
        assertThat(secondHolds.await(200, TimeUnit.MILLISECONDS)).as("the second waits").isFalse();
        third.lock("/other", "/other").close(); // another name is free meanwhile
      }
      assertThat(secondHolds.await(10, TimeUnit.SECONDS)).isTrue();
      assertThatLmctfyException(() -> third.lock("/job", "/job"))
          .hasCode(ErrorCode.DEADLINE_EXCEEDED);
      secondMayGo.countDown();
      waiter.get(10, TimeUnit.SECONDS);
      third.lock("/job", "/job").close();
    }
  }

  @Test
  void aLockFileRemovedUnderARunningProgramIsMadeAgainAndStillExcludes() throws Exception {
    Path dir = temp.resolve("locks");
    try (ContainerLocks first = new ContainerLocks(dir, Duration.ofSeconds(5));
        ContainerLocks second = new ContainerLocks(dir, Duration.ofMillis(300))) {
      first.lock("/job", "/job").close();
      second.lock("/job", "/job").close();
      Files.delete(dir.resolve(ContainerLocks.FILE)); // /run cleared under both
      Thread.sleep(1_100); // each looks at its open file again once a second
      try (ContainerLocks.Held held = first.lock("/job", "/job")) {
        assertThat(files(dir)).containsExactly(ContainerLocks.FILE);
        assertThatLmctfyException(() -> second.lock("/job", "/job"))
            .hasCode(ErrorCode.DEADLINE_EXCEEDED);
      }
    }
  }

  @Test
  void noLockFilePilesUpForACreateAFailedCreateADestroyOrADestroyOfNothing() throws IOException {
    CgroupFs fs = ScratchCgroups.requireHost();
    Path dir = fs.lockDirectory().orElseThrow();
    List<String> before = Files.isDirectory(dir) ? files(dir) : List.of();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api =
            ContainerApi.open(fs, ApiOptions.builder().root(scratch.path()).build())) {
      api.create("/a", ContainerSpec.parse(""));
      assertThatLmctfyException(() -> api.create("/missing/b", ContainerSpec.parse("")))
          .hasCode(ErrorCode.NOT_FOUND);
      assertThatThrownBy(
              () -> api.create("/x//y", ContainerSpec.parse(""))) // "/x/y", whose parent is missing
          .isInstanceOfSatisfying(
              LmctfyException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
      assertThatLmctfyException(() -> api.destroy("/nothing")).hasCode(ErrorCode.NOT_FOUND);
      api.create("/a/b", ContainerSpec.parse(""));
      api.destroy("/a");
      for (int i = 0; i < 20; i++) {
        api.create("/n" + i, ContainerSpec.parse(""));
        api.destroy("/n" + i);
      }
    }
    List<String> after = files(dir);
    assertThat(after)
        .as("the lock directory " + dir)
        .contains(ContainerLocks.FILE)
        .allMatch(f -> f.equals(ContainerLocks.FILE) || before.contains(f));
  }
}
