package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.contract.FileRule.reads;
import static org.lmctfy.testing.contract.FileRule.readsExactly;
import static org.lmctfy.testing.contract.FileRule.refuses;
import static org.lmctfy.testing.contract.FileRule.rule;
import static org.lmctfy.testing.contract.FileRule.takes;
import static org.lmctfy.testing.contract.FileRule.writeFails;
import static org.lmctfy.testing.contract.FileRule.writes;
import static org.lmctfy.testing.internal.host.MachineLacks.assumeHas;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The v1 cpuset, devices, pids, freezer and blkio rules beyond their basics: list syntax, what a
 * parent and its children constrain, rule syntax and listing order, ranges and whitespace, as seen
 * on a real kernel (Linux 6.18, cgroup v1).
 */
public abstract class CgroupV1CpusetDevicesPidsContract extends CgroupFsContractSupport {

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupV1CpusetDevicesPidsContract(ContractBackend backend) {
    super(backend);
  }

  // The rules that need one fresh cgroup of one controller, a row each.
  static List<FileRule> rules() {
    return List.of(
        rule(
            "sched_relax_domain_level defaults to -1 and takes up to 2 here",
            "cpuset",
            reads("cpuset.sched_relax_domain_level", "-1"),
            takes("cpuset.sched_relax_domain_level", "2", "2"),
            refuses(Errno.EINVAL, "cpuset.sched_relax_domain_level", "3", "-2")),
        rule(
            "device rules need single spaces, numbers or stars and an access",
            "devices",
            writes("devices.deny", "a"),
            writeFails(
                Errno.EINVAL, "devices.allow", "c  1:3 r", "c 1:9 ", "c 1:4294967296 r", "c 1:x r"),
            readsExactly("devices.list", ""),
            writes("devices.allow", "c 01:7 r"),
            writes("devices.allow", "b 8:0 rwmx"),
            readsExactly("devices.list", "c 1:7 r\nb 8:0 rwm\n")),
        rule(
            "devices.list keeps the order added and merges accesses of one device",
            "devices",
            writes("devices.deny", "a"),
            writes("devices.allow", "c 1:5 r"),
            writes("devices.allow", "c 136:* rwm"),
            writes("devices.allow", "c 1:5 w"),
            readsExactly("devices.list", "c 1:5 rw\nc 136:* rwm\n"),
            writes("devices.deny", "c 1:5 r"),
            readsExactly("devices.list", "c 1:5 w\nc 136:* rwm\n")),
        rule(
            "pids.max takes up to PID_MAX_LIMIT and ignores surrounding blanks",
            "pids",
            takes("pids.max", "4194304", "4194304"),
            refuses(Errno.EINVAL, "pids.max", "4194305", "MAX"),
            takes("pids.max", " 7 ", "7"),
            takes("pids.max", " max ", "max")),
        rule(
            "freezer.state ignores surrounding blanks but not case",
            "freezer",
            takes("freezer.state", " FROZEN \n", "FROZEN"),
            reads("freezer.self_freezing", "1"),
            refuses(Errno.EINVAL, "freezer.state", "thawed"),
            takes("freezer.state", "THAWED", "THAWED")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void aFreshCgroupFollowsTheRule(FileRule rule) throws IOException {
    checkOnV1(rule);
  }

  // ---- cpuset.

  private Hierarchy cpusetWithTwoCpus() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    String cpus = read(h, CgroupPath.root(), "cpuset.cpus");
    assumeHas(Integer.parseInt(cpus.replaceAll(".*[-,]", "")) >= 1, "needs two cpus");
    return h;
  }

  @Test
  void aBackwardsCpuRangeIsEinval() throws IOException {
    Hierarchy h = cpusetWithTwoCpus();
    assertWriteRefused(Errno.EINVAL, h, scratch.path(), "cpuset.cpus", "1-0");
  }

  @Test
  void shrinkingACpusetBelowWhatAChildUsesIsEbusy() throws IOException {
    Hierarchy h = cpusetWithTwoCpus();
    fs.write(h, scratch.path(), "cpuset.cpus", "0-1");
    CgroupPath child = make(h, "a");
    fs.write(h, child, "cpuset.cpus", "1");
    assertWriteRefused(Errno.EBUSY, h, scratch.path(), "cpuset.cpus", "0");
    assertThat(writeAndRead(h, scratch.path(), "cpuset.cpus", "1")).isEqualTo("1");
  }

  @Test
  void theEffectiveListsAreTheCgroupsOwn() throws IOException {
    Hierarchy h = cpusetWithTwoCpus();
    fs.write(h, scratch.path(), "cpuset.cpus", "0-1");
    fs.write(h, scratch.path(), "cpuset.mems", "0");
    CgroupPath child = make(h, "a");
    fs.write(h, child, "cpuset.cpus", "1");
    assertThat(read(h, child, "cpuset.effective_cpus")).isEqualTo("1");
    assertThat(read(h, scratch.path(), "cpuset.effective_cpus")).isEqualTo("0-1");
    assertThat(read(h, scratch.path(), "cpuset.effective_mems")).isEqualTo("0");
  }

  @Test
  void cloneChildrenMakesANewChildCopyItsParentsCpusAndMems() throws IOException {
    Hierarchy h = cpusetWithTwoCpus();
    fs.write(h, scratch.path(), "cpuset.cpus", "1");
    fs.write(h, scratch.path(), "cpuset.mems", "0");
    CgroupPath plain = make(h, "a");
    fs.write(h, scratch.path(), "cgroup.clone_children", "1");
    CgroupPath cloned = make(h, "b");
    assertThat(read(h, plain, "cpuset.cpus")).isEmpty();
    assertThat(read(h, cloned, "cpuset.cpus")).isEqualTo("1");
    assertThat(read(h, cloned, "cpuset.mems")).isEqualTo("0");
    assertThat(read(h, cloned, "cgroup.clone_children")).isEqualTo("1");
  }

  @Test
  void movingIntoACpusetWithoutCpusIsEnospc() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    long pid = process();
    CgroupPath before = fs.cgroupsOf(pid).get(h);
    CgroupPath p = make(h, "a");
    assertErrno(Errno.ENOSPC, () -> fs.write(h, p, "cgroup.procs", Long.toString(pid)));
    assertThat(fs.cgroupsOf(pid)).containsEntry(h, before);
  }

  @Test
  void emptyingTheCpusOfACpusetWithAProcessIsEnospc() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    long pid = process();
    fs.write(h, scratch.path(), "cpuset.cpus", "0");
    fs.write(h, scratch.path(), "cpuset.mems", "0");
    fs.write(h, scratch.path(), "cgroup.procs", Long.toString(pid));
    assertWriteRefused(Errno.ENOSPC, h, scratch.path(), "cpuset.cpus", "\n");
  }

  // ---- devices.

  @Test
  void aDenialInAParentReachesItsChildren() throws IOException {
    Hierarchy h = hierarchy("devices");
    CgroupPath parent = make(h, "a");
    fs.write(h, parent, "devices.deny", "a");
    fs.write(h, parent, "devices.allow", "c 1:5 rw");
    fs.write(h, parent, "devices.allow", "c 136:* rwm");
    CgroupPath child = make(h, "a/b");
    assertErrno(Errno.EPERM, () -> fs.write(h, child, "devices.allow", "c 1:5 m"));
    fs.write(h, parent, "devices.deny", "c 1:5 w");
    assertThat(fs.read(h, child, "devices.list")).isEqualTo("c 1:5 r\nc 136:* rwm\n");
  }

  // ---- pids, freezer, blkio.

  @Test
  void pidsCurrentCountsTheTasksOfTheSubtree() throws IOException {
    Hierarchy h = hierarchy("pids");
    long pid = process();
    CgroupPath child = make(h, "a/b");
    fs.write(h, child, "cgroup.procs", Long.toString(pid));
    assertThat(read(h, child, "pids.current")).isEqualTo("1");
    assertThat(read(h, child.parent(), "pids.current")).isEqualTo("1");
  }

  @Test
  void pidsAndFreezerFilesExistOnlyBelowTheRoot() throws IOException {
    Hierarchy pids = hierarchy("pids");
    Hierarchy freezer = hierarchy("freezer");
    assertThat(fs.hasFile(pids, CgroupPath.root(), "pids.max")).isFalse();
    assertThat(fs.hasFile(pids, CgroupPath.root(), "pids.current")).isFalse();
    assertThat(fs.hasFile(freezer, CgroupPath.root(), "freezer.state")).isFalse();
    assertThat(fs.hasFile(pids, scratch.path(), "pids.max")).isTrue();
    assertThat(fs.hasFile(freezer, scratch.path(), "freezer.state")).isTrue();
  }

  @Test
  void blkioBfqWeightOfZeroIsErange() throws IOException {
    Hierarchy h = hierarchy("blkio");
    CgroupPath p = make(h, "a");
    assumeHas(fs.hasFile(h, p, "blkio.bfq.weight"), "this kernel has no BFQ weight file");
    assertThat(read(h, p, "blkio.bfq.weight")).isEqualTo("100");
    assertWriteRefused(Errno.ERANGE, h, p, "blkio.bfq.weight", "0");
  }
}
