package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.contract.FileRule.readFails;
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
 * The unified (cgroup2) hierarchy: its core files, as seen on a real kernel, and its controllers.
 *
 * <p>The cases of controllers are {@link CgroupV2ControllersContract}.
 */
public abstract class CgroupV2Contract extends CgroupFsContractSupport {

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupV2Contract(ContractBackend backend) {
    super(backend);
  }

  // The rules of the core files on one fresh cgroup, a row each.
  static List<FileRule> rules() {
    return List.of(
        rule(
            "a new cgroup is an unpopulated thawed domain with no limits",
            readsExactly("cgroup.events", "populated 0\nfrozen 0\n"),
            reads("cgroup.type", "domain"),
            reads("cgroup.max.descendants", "max"),
            reads("cgroup.max.depth", "max"),
            reads("cgroup.freeze", "0")),
        rule(
            "freezing an empty cgroup reports frozen at once",
            writes("cgroup.freeze", "1"),
            readsExactly("cgroup.events", "populated 0\nfrozen 1\n"),
            writes("cgroup.freeze", "0"),
            readsExactly("cgroup.events", "populated 0\nfrozen 0\n"),
            refuses(Errno.ERANGE, "cgroup.freeze", "2")),
        rule(
            "cgroup.kill takes only 1 and cannot be read",
            writeFails(Errno.ERANGE, "cgroup.kill", "2", "0"),
            readFails(Errno.EINVAL, "cgroup.kill")),
        rule(
            "perf_event is implicit: never enabled, but may be disabled",
            refuses(Errno.ENOENT, "cgroup.subtree_control", "+perf_event"),
            writes("cgroup.subtree_control", "-perf_event"),
            readsExactly("cgroup.subtree_control", "")),
        rule(
            "disabling a controller that is not enabled is accepted",
            writes("cgroup.subtree_control", "-memory"),
            writes("cgroup.subtree_control", "-pids -hugetlb"),
            readsExactly("cgroup.subtree_control", "")),
        rule(
            "cgroup.freeze ignores surrounding blanks",
            takes("cgroup.freeze", " 1 ", "1"),
            takes("cgroup.freeze", "0\n", "0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void aFreshCgroupFollowsTheRule(FileRule rule) throws IOException {
    Hierarchy h = unified();
    rule.check(this, h, make(h, "a"));
  }

  @Test
  void everyCgroupHasTheCoreInterfaceFiles() throws IOException {
    Hierarchy h = unified();
    CgroupPath p = make(h, "a");
    for (String file :
        new String[] {
          "cgroup.procs",
          "cgroup.threads",
          "cgroup.events",
          "cgroup.freeze",
          "cgroup.kill",
          "cgroup.type",
          "cgroup.controllers",
          "cgroup.subtree_control",
          "cgroup.max.depth",
          "cgroup.max.descendants",
          "cgroup.stat"
        }) {
      assertThat(fs.hasFile(h, p, file)).as(file).isTrue();
    }
  }

  @Test
  void subtreeControlNeedsASignAndAKnownController() throws IOException {
    Hierarchy h = unified();
    assertWriteRefused(Errno.EINVAL, h, scratch.path(), "cgroup.subtree_control", "memory");
    assertWriteRefused(Errno.EINVAL, h, scratch.path(), "cgroup.subtree_control", "+bogus");
  }

  @Test
  void enablingAControllerTheCgroupDoesNotHaveIsEnoent() throws IOException {
    Hierarchy h = unified();
    CgroupPath a = make(h, "a");
    CgroupPath b = a.resolve("b"); // its parent enables nothing, so it has no controller at all
    fs.makeCgroup(h, b);
    assertThat(read(h, b, "cgroup.controllers")).isEmpty();
    assertWriteRefused(Errno.ENOENT, h, b, "cgroup.subtree_control", "+memory");
  }

  @Test
  void maxDescendantsLimitsMkdirWithEagain() throws IOException {
    Hierarchy h = unified();
    CgroupPath p = make(h, "a");
    assertWriteRefused(Errno.ERANGE, h, p, "cgroup.max.descendants", "-1");
    fs.write(h, p, "cgroup.max.descendants", "0");
    assertErrno(Errno.EAGAIN, () -> fs.makeCgroup(h, p.resolve("b")));
    assertThat(fs.exists(h, p.resolve("b"))).isFalse();
  }

  @Test
  void aProcessMakesItsCgroupAndAncestorsPopulatedAndCgroupKillEndsIt() throws IOException {
    Hierarchy h = unified();
    long pid = process();
    CgroupPath p = make(h, "a/b");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    assertThat(fs.read(h, p, "cgroup.events")).startsWith("populated 1\n");
    assertThat(fs.read(h, p.parent(), "cgroup.events")).startsWith("populated 1\n");
    fs.write(h, p.parent(), "cgroup.kill", "1");
    awaitUnpopulated(h, p);
    assertThat(fs.read(h, p, "cgroup.procs")).isEmpty();
  }

  private void awaitUnpopulated(Hierarchy h, CgroupPath p) throws IOException {
    for (int i = 0; i < 200 && fs.read(h, p, "cgroup.events").startsWith("populated 1"); i++) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }
    assertThat(fs.read(h, p, "cgroup.events")).startsWith("populated 0\n");
  }

  @Test
  void maxDepthLimitsMkdirWithEagainAndTakesMaxOrANonNegativeNumber() throws IOException {
    Hierarchy h = unified();
    CgroupPath p = make(h, "a");
    assertWriteRefused(Errno.ERANGE, h, p, "cgroup.max.depth", "-1");
    assertWriteRefused(Errno.EINVAL, h, p, "cgroup.max.depth", "abc");
    assertWriteRefused(Errno.EINVAL, h, p, "cgroup.max.descendants", "abc");
    assertThat(writeAndRead(h, p, "cgroup.max.depth", "1")).isEqualTo("1");
    make(h, "a/b");
    assertErrno(Errno.EAGAIN, () -> fs.makeCgroup(h, at("a/b/c")));
    assertThat(fs.exists(h, at("a/b/c"))).isFalse();
    assertThat(writeAndRead(h, p, "cgroup.max.depth", " max ")).isEqualTo("max");
    fs.makeCgroup(h, at("a/b/c"));
  }

  @Test
  void cgroupStatCountsTheDescendants() throws IOException {
    Hierarchy h = unified();
    make(h, "a/b");
    assertThat(fs.read(h, scratch.path(), "cgroup.stat")).startsWith("nr_descendants 2\n");
    assertThat(fs.read(h, at("a/b"), "cgroup.stat")).startsWith("nr_descendants 0\n");
  }

  @Test
  void aChildOfACgroupWithNothingEnabledHasEmptyControllerListsWithoutANewline()
      throws IOException {
    Hierarchy h = unified();
    CgroupPath p = make(h, "a/b"); // a enables nothing for b, whatever the scratch parent enables
    assertThat(fs.read(h, p, "cgroup.controllers")).isEmpty();
    assertThat(fs.read(h, p, "cgroup.subtree_control")).isEmpty();
  }

  @Test
  void cgroupKillOfAThreadedCgroupIsEopnotsupp() throws IOException {
    Hierarchy h = unified();
    CgroupPath t = make(h, "t/th");
    fs.write(h, t, "cgroup.type", "threaded");
    assertErrno(Errno.EOPNOTSUPP, () -> fs.write(h, t, "cgroup.kill", "1"));
    fs.write(h, t.parent(), "cgroup.kill", "1"); // its thread root, a domain, may be killed
  }

  @Test
  void aThreadedCgroupMakesItsParentAThreadRootAndItsSiblingsAndNewChildrenInvalidDomains()
      throws IOException {
    Hierarchy h = unified();
    CgroupPath b = make(h, "a/b");
    CgroupPath sibling = make(h, "a/s");
    assertWriteRefused(Errno.EINVAL, h, b, "cgroup.type", "bogus");
    assertThat(writeAndRead(h, b, "cgroup.type", "threaded")).isEqualTo("threaded");
    assertThat(read(h, b.parent(), "cgroup.type")).isEqualTo("domain threaded");
    assertThat(read(h, sibling, "cgroup.type")).isEqualTo("domain invalid");
    assertWriteRefused(Errno.EINVAL, h, b, "cgroup.type", "domain");
    assertErrno(Errno.EOPNOTSUPP, () -> fs.read(h, b, "cgroup.procs"));
    assertThat(read(h, make(h, "a/b/c"), "cgroup.type")).isEqualTo("domain invalid");
  }

  @Test
  void cgroupThreadsCannotTakeAThreadFromAnotherDomainWhichIsEopnotsupp() throws IOException {
    Hierarchy h = unified();
    long pid = process();
    CgroupPath a = make(h, "a");
    CgroupPath b = make(h, "b");
    fs.write(h, a, "cgroup.procs", Long.toString(pid));
    assertErrno(Errno.EOPNOTSUPP, () -> fs.write(h, b, "cgroup.threads", Long.toString(pid)));
    assertThat(fs.cgroupsOf(pid)).containsEntry(h, a);
    assertThat(read(h, a, "cgroup.threads")).isEqualTo(Long.toString(pid));
  }

  @Test
  void cgroupPressureTakesZeroOrOne() throws IOException {
    Hierarchy h = unified();
    CgroupPath p = make(h, "a");
    assumeHas(fs.hasFile(h, p, "cgroup.pressure"), "this kernel has no pressure stall information");
    assertThat(read(h, p, "cgroup.pressure")).isEqualTo("1");
    assertWriteRefused(Errno.ERANGE, h, p, "cgroup.pressure", "2");
    assertThat(writeAndRead(h, p, "cgroup.pressure", "0")).isEqualTo("0");
    assertThat(writeAndRead(h, p, "cgroup.pressure", "1")).isEqualTo("1");
  }

  @Test
  void aPressureTriggerThatDoesNotParseIsEinval() throws IOException {
    Hierarchy h = unified();
    CgroupPath p = make(h, "a");
    assumeHas(fs.hasFile(h, p, "cpu.pressure"), "this kernel has no pressure stall information");
    assertErrno(Errno.EINVAL, () -> fs.write(h, p, "cpu.pressure", "garbage"));
    assertErrno(Errno.EINVAL, () -> fs.write(h, p, "memory.pressure", "most 1 2"));
  }

  /** Enables {@code controller} in the scratch parent, or skips where the layout cannot. */
}
