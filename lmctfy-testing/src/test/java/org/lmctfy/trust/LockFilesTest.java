package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.lmctfy.testing.ScratchCgroups;

/**
 * A lock file exists only while its lock is held: none stays after a create, a failed create, a
 * destroy or a destroy of a name that does not exist, and a waiter handed a file its holder removed
 * locks the next one, so exclusion holds across the removal.
 */
@Tag("kernel")
class LockFilesTest {
  private Path temp;

  @BeforeEach
  void makeTemp() throws IOException {
    temp = Files.createTempDirectory("lmctfy-lockfiles", PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwx------")));
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

  private List<String> lockFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aLockFileIsGoneOnceItsLockIsLetGo() throws IOException {
    Path dir = temp.resolve("locks");
    ContainerLocks locks = new ContainerLocks(dir, Duration.ofSeconds(5));
    try (ContainerLocks.Held held = locks.lock("/a/b", "/b")) {
      assertThat(lockFiles(dir)).containsExactly(ContainerLocks.fileName("/a/b"));
      try (ContainerLocks.Held again = locks.lock("/a/b", "/b")) { // reentrant: the same file
        assertThat(lockFiles(dir)).containsExactly(ContainerLocks.fileName("/a/b"));
      }
      assertThat(lockFiles(dir)).as("still held by the outer lock").hasSize(1);
    }
    assertThat(lockFiles(dir)).isEmpty();
  }

  @Test
  void aWaiterHandedARemovedFileLocksTheNextOneAndStillExcludesOthers() throws Exception {
    Path dir = temp.resolve("locks");
    // three APIs' locks in one JVM: three open files, excluded by the kernel's flock alone
    ContainerLocks first = new ContainerLocks(dir, Duration.ofSeconds(10));
    ContainerLocks second = new ContainerLocks(dir, Duration.ofSeconds(10));
    ContainerLocks third = new ContainerLocks(dir, Duration.ofMillis(300));
    CountDownLatch secondHolds = new CountDownLatch(1);
    CountDownLatch secondMayGo = new CountDownLatch(1);
    CompletableFuture<Void> waiter;
    try (ContainerLocks.Held held = first.lock("/job", "/job")) {
      waiter = CompletableFuture.runAsync(() -> {
        try (ContainerLocks.Held h = second.lock("/job", "/job")) {
          secondHolds.countDown();
          secondMayGo.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Thread.sleep(100); // let the waiter open the file and wait on it
    } // first lets go and removes the file the waiter holds open
    assertThat(secondHolds.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(lockFiles(dir)).as("the waiter's new file").containsExactly(ContainerLocks.fileName("/job"));
    assertThatThrownBy(() -> third.lock("/job", "/job")).isInstanceOfSatisfying(LmctfyException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED));
    secondMayGo.countDown();
    waiter.get(10, TimeUnit.SECONDS);
    assertThat(lockFiles(dir)).isEmpty();
  }

  @Test
  void noLockFileStaysForACreateAFailedCreateADestroyOrADestroyOfNothing() throws IOException {
    CgroupFs fs = ScratchCgroups.requireHost();
    Path dir = fs.lockDirectory().orElseThrow();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, ApiOptions.builder().root(scratch.path()).build())) {
      String mine = ContainerLocks.fileName(scratch.path().value()).replace(".lock", "");
      api.create("/a", ContainerSpec.parse(""));
      assertThatThrownBy(() -> api.create("/missing/b", ContainerSpec.parse("")))
          .isInstanceOfSatisfying(LmctfyException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
      assertThatThrownBy(() -> api.create("/x//y", ContainerSpec.parse(""))) // "/x/y", whose parent is missing
          .isInstanceOfSatisfying(LmctfyException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
      assertThatThrownBy(() -> api.destroy("/nothing"))
          .isInstanceOfSatisfying(LmctfyException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
      api.create("/a/b", ContainerSpec.parse(""));
      api.destroy("/a");

      assertThat(Files.isDirectory(dir) ? lockFiles(dir) : List.<String>of())
          .as("lock files of this test's names in " + dir).noneMatch(f -> f.startsWith(mine));
    }
  }
}
