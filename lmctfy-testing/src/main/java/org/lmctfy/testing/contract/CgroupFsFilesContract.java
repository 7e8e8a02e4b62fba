package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * How interface files and directories answer the calls that do not fit them, how task files parse
 * what is written, and what a new v1 cgroup inherits, as seen on a real kernel. Complements {@link
 * CgroupFsContract}.
 */
public abstract class CgroupFsFilesContract extends CgroupFsContractSupport {

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupFsFilesContract(ContractBackend backend) {
    super(backend);
  }

  @Test
  void writingToASubcgroupIsEisdir() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      make(h, "a/b");
      assertErrno(Errno.EISDIR, () -> fs.write(h, at("a"), "b", "1"));
      assertThat(fs.exists(h, at("a/b"))).as(h.label()).isTrue();
    }
  }

  @Test
  void removingAnInterfaceFileIsEnotdirAndMakingACgroupNamedLikeOneIsEexist() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      assertErrno(Errno.ENOTDIR, () -> fs.removeCgroup(h, p.resolve("cgroup.procs")));
      assertErrno(Errno.EEXIST, () -> fs.makeCgroup(h, p.resolve("cgroup.procs")));
      assertThat(fs.hasFile(h, p, "cgroup.procs")).as(h.label()).isTrue();
    }
  }

  @Test
  void aZeroLengthWriteSucceedsAndChangesNothing() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      String file = h.version() == CgroupVersion.V1 ? "notify_on_release" : "cgroup.max.depth";
      String before = fs.read(h, p, file);
      fs.write(h, p, file, "");
      fs.write(h, p, "cgroup.procs", "");
      assertThat(fs.read(h, p, file)).as(h.label()).isEqualTo(before);
      assertThat(fs.read(h, p, "cgroup.procs")).as(h.label()).isEmpty();
    }
  }

  @Test
  void aTaskFileTakesExactlyOneNumber() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      String threads = h.version() == CgroupVersion.V1 ? "tasks" : "cgroup.threads";
      assertErrno(Errno.EINVAL, () -> fs.write(h, p, "cgroup.procs", "1 2"));
      assertErrno(Errno.EINVAL, () -> fs.write(h, p, "cgroup.procs", "\n"));
      assertErrno(Errno.EINVAL, () -> fs.write(h, p, threads, "abc"));
      assertErrno(Errno.ESRCH, () -> fs.write(h, p, threads, Long.toString(NO_SUCH_PID)));
      assertThat(fs.read(h, p, "cgroup.procs")).as(h.label()).isEmpty();
    }
  }

  @Test
  void aPidWithSurroundingBlanksMovesTheProcess() throws IOException {
    Hierarchy h = membershipHierarchy();
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", " " + pid + " \n");
    assertThat(fs.cgroupsOf(pid)).containsEntry(h, p);
  }

  @Tag("needs-v1")
  @Test
  void writingAThreadIdToTasksMovesThatThread() throws IOException {
    Hierarchy h = hierarchy("memory");
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "tasks", Long.toString(pid));
    assertThat(read(h, p, "tasks")).isEqualTo(Long.toString(pid));
    assertThat(read(h, p, "cgroup.procs")).isEqualTo(Long.toString(pid));
  }

  @Test
  void writingZeroToCgroupProcsMovesTheWriter() throws IOException, InterruptedException {
    Hierarchy h = membershipHierarchy();
    CgroupPath p = make(h, "a");
    if (!mayMoveTheTestProcess()) {
      // the kernel: a shell writes 0 itself, so the test JVM stays put
      Process sh =
          new ProcessBuilder(
                  "/bin/sh",
                  "-c",
                  "echo 0 > \"$0\" && exec sleep 100",
                  h.display(p, "cgroup.procs"))
              .start();
      try {
        for (int i = 0; i < 500 && read(h, p, "cgroup.procs").isEmpty() && sh.isAlive(); i++) {
          Thread.sleep(10);
        }
        assertThat(read(h, p, "cgroup.procs")).isEqualTo(Long.toString(sh.pid()));
        assertThat(fs.cgroupsOf(sh.pid())).containsEntry(h, p);
      } finally {
        sh.destroyForcibly().waitFor();
      }
      return;
    }
    CgroupPath home = fs.cgroupsOf(fs.selfPid()).get(h);
    fs.write(h, p, "cgroup.procs", "0");
    try {
      assertThat(read(h, p, "cgroup.procs")).isEqualTo(Long.toString(fs.selfPid()));
      assertThat(fs.cgroupsOf(fs.selfPid())).containsEntry(h, p);
    } finally {
      fs.write(h, home, "cgroup.procs", Long.toString(fs.selfPid()));
    }
  }

  @Tag("needs-v1")
  @Test
  void aNewCgroupInheritsNotifyOnReleaseAndCloneChildren() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath parent = make(h, "a");
    fs.write(h, parent, "notify_on_release", "5");
    fs.write(h, parent, "cgroup.clone_children", "1");
    CgroupPath child = make(h, "a/b");
    assertThat(read(h, child, "notify_on_release")).isEqualTo("1");
    assertThat(read(h, child, "cgroup.clone_children")).isEqualTo("1");
    assertThat(read(h, make(h, "c"), "notify_on_release")).isEqualTo("0");
  }

  @Tag("needs-v1")
  @Test
  void aNegativeFlagIsEinval() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertWriteRefused(Errno.EINVAL, h, p, "notify_on_release", "-1");
    assertWriteRefused(Errno.EINVAL, h, p, "cgroup.clone_children", "-1");
  }

  @Test
  void rootOnlyFilesExistAtTheRoot() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      if (h.version() == CgroupVersion.V1) {
        assertThat(fs.hasFile(h, CgroupPath.root(), "release_agent")).as(h.label()).isTrue();
        assertThat(fs.hasFile(h, CgroupPath.root(), "cgroup.sane_behavior")).as(h.label()).isTrue();
      }
    }
  }
}
