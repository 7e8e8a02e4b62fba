package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.UpdateOption;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.support.BlockDevices;
import org.lmctfy.support.BlockDevices.Disk;
import org.lmctfy.support.GuestLayout;
import org.lmctfy.support.Proves;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * An update that lowers memory.limit below the usage, on the kernel (this host's v1 memory
 * hierarchy, the guests' v2): page cache is reclaimed and the lower limit written; anonymous memory
 * (no swap here or in the guests) cannot be, so the update is refused naming the usage, the limit
 * stays and the process lives; forced, v2 writes it and the kernel OOM-kills the process, v1 still
 * refuses.
 */
@Tag("kernel")
@Tag("needs-controllers")
class KernelMemoryShrinkTest extends ApiOnScratch {
  private static final long MIB = 1L << 20;
  private static final ContainerSpec WAS = ContainerSpec.parse("memory { limit: 268435456 }");
  private static final ContainerSpec LOWER = ContainerSpec.parse("memory { limit: 25165824 }");

  KernelMemoryShrinkTest() {
    super(ContractBackend.host());
  }

  /** Waits until the container uses at least {@code bytes}, the same over a second. */
  private long usingAtLeast(Container c, long bytes) throws InterruptedException {
    long now = 0;
    long last = -1;
    for (long end = System.nanoTime() + 120_000_000_000L;
        System.nanoTime() < end && (now < bytes || now != last);
        Thread.sleep(1000)) {
      last = now;
      now = c.stats(StatsType.SUMMARY).memory().usage();
    }
    assertThat(now).as("usage").isGreaterThanOrEqualTo(bytes);
    return now;
  }

  private boolean onV2() {
    return fs.hierarchies().stream()
        .noneMatch(h -> h.version() == CgroupVersion.V1 && h.has("memory"));
  }

  /**
   * 48 MiB of page cache, from data nobody read before (page cache stays charged to the cgroup that
   * first read it): a new file where the temporary directory is on a disk (this host), else the
   * guests' disk, its last 48 MiB, which no other test reads (kept open: the kernel drops a block
   * device's cache at its last close).
   */
  @Test
  @Proves("Container.update lowering memory.limit below the usage")
  void pageCacheIsReclaimedAndTheLowerLimitWritten(@TempDir Path dir) throws Exception {
    String fill;
    if (!Files.getFileStore(dir).type().equals("tmpfs")) {
      fill = "head -c 50331648 /dev/zero > " + dir.resolve("cache") + " && sync";
    } else {
      Disk disk = BlockDevices.aDisk();
      long mib =
          Long.parseLong(Files.readString(Path.of("/sys/block", disk.name(), "size")).strip())
              / 2048;
      fill =
          "exec 3<"
              + disk.node()
              + "; dd if="
              + disk.node()
              + " of=/dev/null bs=1M count=48 skip="
              + (mib - 48);
    }
    Container job = api.create("/job", WAS);
    ContainerProcess reader = run(job, fill + "; exec sleep 600");
    long before = usingAtLeast(job, 40 * MIB);
    job.update(LOWER, UpdatePolicy.DIFF);
    assertThat(job.spec()).isEqualTo(LOWER);
    long after = job.stats(StatsType.SUMMARY).memory().usage();
    assertThat(after).as("usage before %d", before).isLessThanOrEqualTo(24 * MIB);
    assertThat(job.stats(StatsType.SUMMARY).memory().limit()).isEqualTo(24 * MIB);
    assertThat(reader.isAlive()).isTrue();
  }

  /** 64 MiB of a perl string: anonymous memory, which nothing can reclaim without swap. */
  @Test
  @Proves(
      value = "Container.update lowering memory.limit below the usage",
      refusal = "FAILED_PRECONDITION")
  void anonymousMemoryIsRefusedUnlessForcedThenTheKernelKills() throws Exception {
    GuestLayout.requireHas(Files.isExecutable(Path.of("/usr/bin/perl")), "/usr/bin/perl");
    GuestLayout.requireHas(
        Files.readString(Path.of("/proc/swaps")).lines().count() <= 1, "no swap");
    Container job = api.create("/job", WAS);
    ContainerProcess hog = run(job, "exec /usr/bin/perl -e '$x = \"a\" x (64 << 20); sleep 600'");
    long usage = usingAtLeast(job, 64 * MIB);
    LmctfyException e =
        assertThatLmctfyException(() -> job.update(LOWER, UpdatePolicy.DIFF))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage())
        .as("usage %d", usage)
        .contains("memory.limit", "25165824", onV2() ? "memory.current" : "memory.usage_in_bytes");
    System.out.println("refused: " + e.getMessage());
    assertThat(job.spec()).isEqualTo(WAS);
    assertThat(hog.isAlive()).as("the process lives").isTrue();
    if (!onV2()) {
      assertThatLmctfyException(
              () -> job.update(LOWER, UpdatePolicy.DIFF, UpdateOption.FORCE_MEMORY_LIMIT))
          .hasCode(ErrorCode.FAILED_PRECONDITION);
      assertThat(job.spec()).isEqualTo(WAS);
      assertThat(hog.isAlive()).isTrue();
      return;
    }
    job.update(LOWER, UpdatePolicy.DIFF, UpdateOption.FORCE_MEMORY_LIMIT);
    assertThat(job.spec()).isEqualTo(LOWER);
    assertThat(hog.waitFor(Duration.ofSeconds(120))).as("OOM-killed").hasValue(128 + 9);
    assertThat(job.stats(StatsType.FULL).memory().oomKills()).isPositive();
  }
}
