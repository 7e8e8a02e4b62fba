package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.StatsType;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.support.Proves;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * Threaded cgroups (cgroup.type "threaded", a cgroup of threads), which only another tool makes:
 * lmctfy has no spec for one. A container of ours that holds them is destroyed whole (they hold
 * threads of its own processes); one found at a container's name is read, paused and destroyed once
 * empty, and everything the kernel would refuse there is FAILED_PRECONDITION saying why.
 */
abstract class ThreadedCgroupsContract extends ApiOnScratch {
  private final ContractBackend backend;

  ThreadedCgroupsContract(ContractBackend backend) {
    super(backend);
    this.backend = backend;
  }

  /**
   * Starts a process with at least two threads outside the scratch cgroups: {pid, a tid that is not
   * the pid}.
   */
  abstract long[] startThreadedProcess() throws IOException;

  /** Whether the process is gone (killed and reaped, or never there). */
  abstract boolean gone(long pid) throws IOException;

  /** Ends a process {@link #startThreadedProcess} started, if it still runs. */
  abstract void stop(long pid) throws IOException;

  Hierarchy unified() {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2)
        .findFirst()
        .orElseThrow();
  }

  CgroupPath path(String container) {
    return CgroupPath.of(container).under(scratch.path());
  }

  /** What another tool does: a cgroup made threaded. */
  void makeThreaded(String container) throws IOException {
    fs.makeCgroup(unified(), path(container));
    fs.write(unified(), path(container), "cgroup.type", "threaded");
  }

  @Test
  @Proves("threaded cgroups")
  void aContainerHoldingAThreadOfItsProcessInAThreadedChildIsDestroyedWhole() throws IOException {
    Container job = api.create("/job", ContainerSpec.parse("pids { limit: 50 }"));
    makeThreaded("/job/t");
    long[] p = startThreadedProcess();
    try {
      job.enter(List.of(p[0]));
      fs.write(unified(), path("/job/t"), "cgroup.threads", Long.toString(p[1]));
      assertThat(fs.read(unified(), path("/job"), "cgroup.type").strip())
          .isEqualTo("domain threaded");
      assertThat(fs.read(unified(), path("/job/t"), "cgroup.threads").strip())
          .isEqualTo(Long.toString(p[1]));
      assertThat(job.listProcesses(ListPolicy.RECURSIVE)).contains(p[0]);

      job.destroy();

      assertThat(fs.exists(unified(), path("/job/t"))).isFalse();
      assertThat(fs.exists(unified(), path("/job"))).isFalse();
      assertThat(gone(p[0])).as("the process whose thread was in the threaded child").isTrue();
    } finally {
      stop(p[0]);
    }
  }

  @Test
  @Proves("threaded cgroups")
  void aContainerWithAnEmptyThreadedChildAndAProcessIsDestroyed() throws IOException {
    Container job = api.create("/job", ContainerSpec.empty());
    long pid = backend.startProcess(fs);
    try {
      job.enter(List.of(pid));
      makeThreaded("/job/t");
      api.destroy("/job");
      assertThat(fs.exists(unified(), path("/job"))).isFalse();
    } finally {
      backend.stopProcess(fs, pid);
    }
  }

  @Test
  @Proves(value = "threaded cgroups", refusal = "FAILED_PRECONDITION")
  void whatTheKernelRefusesAThreadedCgroupIsFailedPreconditionSayingSoAndChangesNothing()
      throws IOException {
    api.create("/job", ContainerSpec.empty());
    makeThreaded("/job/t");
    Container t = api.get("/job/t");
    long pid = backend.startProcess(fs);
    try {
      refused(() -> api.create("/job/t/u", ContainerSpec.empty()), "\"threaded\"");
      refused(() -> api.create("/job/d", ContainerSpec.empty()), "\"domain threaded\"");
      refused(
          () -> t.update(ContainerSpec.parse("pids { limit: 5 }"), UpdatePolicy.DIFF),
          "\"threaded\"");
      refused(() -> t.run(List.of("/bin/true"), RunSpec.detached()), "\"threaded\"");
      refused(() -> t.enter(List.of(pid)), "\"threaded\"");
      refused(t::killAll, "\"threaded\"");
      refused(() -> t.listProcesses(ListPolicy.SELF), "\"threaded\"");
      assertThat(fs.children(unified(), path("/job/t"))).isEmpty();
      assertThat(fs.children(unified(), path("/job"))).containsExactly("t");
      assertThat(fs.read(unified(), path("/job/t"), "cgroup.type").strip()).isEqualTo("threaded");

      assertThat(t.listThreads(ListPolicy.SELF)).isEmpty();
      assertThat(t.stats(StatsType.SUMMARY)).isNotNull();
      assertThat(api.get("/job").listSubcontainers(ListPolicy.SELF)).containsExactly("/job/t");
      t.destroy();
      assertThat(fs.exists(unified(), path("/job/t"))).isFalse();
    } finally {
      backend.stopProcess(fs, pid);
    }
  }

  private static void refused(ThrowingCallable call, String saying) {
    assertThatLmctfyException(call)
        .hasCode(ErrorCode.FAILED_PRECONDITION)
        .hasMessageContainingAll(saying, "cgroup");
  }
}
