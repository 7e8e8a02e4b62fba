package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.contract.FileRule.reads;
import static org.lmctfy.testing.contract.FileRule.refuses;
import static org.lmctfy.testing.contract.FileRule.rule;
import static org.lmctfy.testing.contract.FileRule.takes;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The controllers of the unified hierarchy (memory, cpu, io, pids): how enabling them meets
 * processes, threads and limits, as seen on a real kernel. The cases need those controllers given
 * to the scratch parent: on the kernel they run where the layout enables them (tag {@code
 * needs-v2}: the {@code v2} guests of {@code .ci/kernel-vm}); on the fake's v2 layouts everywhere.
 */
public abstract class CgroupV2ControllersContract extends CgroupFsContractSupport {

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupV2ControllersContract(ContractBackend backend) {
    super(backend);
  }

  private Hierarchy withController(String controller) throws IOException {
    Hierarchy h = unified();
    assertThat(Set.of(read(h, scratch.path(), "cgroup.controllers").split(" ")))
        .as(
            "controllers of the scratch parent (a needs-v2 case: the layout gives memory, cpu, io, pids)")
        .contains(controller);
    fs.write(h, scratch.path(), "cgroup.subtree_control", "+" + controller);
    return h;
  }

  // The rules on one fresh cgroup whose controller the scratch parent enables, a row each.
  static List<FileRule> rules() {
    return List.of(
        rule(
            "memory.max takes max or bytes rounded down to a page",
            "memory",
            reads("memory.max", "max"),
            takes("memory.max", "1048577", "1048576"),
            takes("memory.max", "max", "max"),
            takes("memory.swap.max", "0", "0"),
            takes("memory.low", "4096", "4096"),
            refuses(Errno.EINVAL, "memory.max", "-1"),
            refuses(Errno.EINVAL, "memory.high", "abc")),
        rule(
            "a cpu.max quota below 1000 is EINVAL and a weight outside its range ERANGE",
            "cpu",
            reads("cpu.max", "max 100000"),
            takes("cpu.max", "50000 100000", "50000 100000"),
            refuses(Errno.EINVAL, "cpu.max", "500 100000"),
            reads("cpu.weight", "100"),
            refuses(Errno.ERANGE, "cpu.weight", "0", "10001")),
        rule(
            "pids.max on v2 takes max or a number",
            "pids",
            reads("pids.max", "max"),
            takes("pids.max", "64", "64"),
            refuses(Errno.EINVAL, "pids.max", "-1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void aFreshCgroupFollowsTheRule(FileRule rule) throws IOException {
    Hierarchy h = withController(rule.controller());
    rule.check(this, h, make(h, "a"));
  }

  @Test
  void controllerFilesAppearInChildrenWhenEnabledAndGoWhenDisabled() throws IOException {
    Hierarchy h = withController("memory");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cgroup.controllers")).contains("memory");
    assertThat(fs.hasFile(h, p, "memory.max")).isTrue();
    fs.write(h, scratch.path(), "cgroup.subtree_control", "-memory");
    assertThat(fs.hasFile(h, p, "memory.max")).isFalse();
  }

  @Test
  void disablingAControllerAChildStillEnablesIsEbusy() throws IOException {
    Hierarchy h = withController("memory");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.subtree_control", "+memory");
    assertWriteRefused(Errno.EBUSY, h, scratch.path(), "cgroup.subtree_control", "-memory");
  }

  @Test
  void processesAndDomainControllersDoNotMixInOneCgroup() throws IOException {
    Hierarchy h =
        withController("memory"); // a domain controller: threaded ones (pids, cpu) may mix
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    assertWriteRefused(Errno.EBUSY, h, p, "cgroup.subtree_control", "+memory");
    CgroupPath q = make(h, "b");
    fs.write(h, q, "cgroup.subtree_control", "+memory");
    assertErrno(Errno.EBUSY, () -> fs.write(h, q, "cgroup.procs", Long.toString(pid)));
  }

  @Test
  void threadedControllersMayShareACgroupWithProcessesWhichThenIsAThreadRoot() throws IOException {
    Hierarchy h = withController("pids");
    withController("memory");
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    fs.write(h, p, "cgroup.subtree_control", "+pids"); // pids is threaded: no EBUSY
    assertThat(read(h, p, "cgroup.subtree_control")).isEqualTo("pids");
    assertThat(read(h, p, "cgroup.type")).isEqualTo("domain threaded");
    assertWriteRefused(
        Errno.EOPNOTSUPP, h, p, "cgroup.subtree_control", "+memory"); // no domain one now
    CgroupPath child = p.resolve("c");
    fs.makeCgroup(h, child);
    assertThat(read(h, child, "cgroup.type")).isEqualTo("domain invalid");
    assertErrno(Errno.EOPNOTSUPP, () -> fs.write(h, child, "cgroup.procs", Long.toString(pid)));
  }

  @Test
  void aProcessMayJoinACgroupThatEnablesOnlyThreadedControllers() throws IOException {
    Hierarchy h = withController("pids");
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.subtree_control", "+pids");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    assertThat(read(h, p, "cgroup.procs")).isEqualTo(Long.toString(pid));
  }

  @Test
  void memoryMaxBelowUsageIsAcceptedNotRefused() throws IOException {
    Hierarchy h = withController("memory");
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    fs.write(h, p, "memory.max", "4096"); // the kernel reclaims or OOM-kills; it does not refuse
    assertThat(read(h, p, "memory.max")).isEqualTo("4096");
  }
}
