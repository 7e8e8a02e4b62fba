package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The unified hierarchy's freezer, with processes, as a real kernel has it (checked on 6.1 and 6.12
 * in the kernel harness, and on this machine's unified hierarchy): what pause, resume and killAll
 * rely on. {@code cgroup.freeze} is a cgroup's own state; {@code frozen} in {@code cgroup.events}
 * is the effective one, set once every process below is frozen (an empty cgroup at once); SIGKILL
 * and {@code cgroup.kill} end frozen processes, and the emptied cgroup stays frozen.
 */
public abstract class CgroupV2FreezerContract extends CgroupFreezerContractSupport {
  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupV2FreezerContract(ContractBackend backend) {
    super(backend);
  }

  @Test
  void aProcessMovedIntoAFrozenCgroupIsFrozenThereAndTheCgroupReportsFrozen() throws IOException {
    Hierarchy h = unified();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.freeze", "1");
    long pid = process();
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    assertThat(awaitFile(h, p, "cgroup.events", s -> s.contains("frozen 1")))
        .isEqualTo("populated 1\nfrozen 1\n");
    fs.write(h, p, "cgroup.freeze", "0");
    assertThat(awaitFile(h, p, "cgroup.events", s -> s.contains("frozen 0")))
        .isEqualTo("populated 1\nfrozen 0\n");
  }

  @Test
  void aFrozenParentFreezesItsChildrenWhoseOwnFreezeStaysZeroAndThawingAChildAloneKeepsItFrozen()
      throws IOException {
    Hierarchy h = unified();
    CgroupPath child = make(h, "a/b");
    long pid = process();
    fs.write(h, child, "cgroup.procs", Long.toString(pid));
    fs.write(h, child.parent(), "cgroup.freeze", "1");
    awaitFile(h, child, "cgroup.events", s -> s.contains("frozen 1"));
    assertThat(read(h, child, "cgroup.freeze")).isEqualTo("0");
    fs.write(h, child, "cgroup.freeze", "0");
    settle();
    assertThat(fs.read(h, child, "cgroup.events")).contains("frozen 1");
    fs.write(h, child.parent(), "cgroup.freeze", "0");
    awaitFile(h, child, "cgroup.events", s -> s.contains("frozen 0"));
  }

  @Test
  void cgroupKillEndsFrozenProcessesAndTheEmptiedCgroupStaysFrozen() throws IOException {
    Hierarchy h = unified();
    CgroupPath p = make(h, "a/b");
    aFrozenProcessIn(h, p);
    fs.write(h, p.parent(), "cgroup.kill", "1");
    assertThat(awaitFile(h, p, "cgroup.events", s -> s.startsWith("populated 0")))
        .isEqualTo("populated 0\nfrozen 1\n");
    assertThat(read(h, p, "cgroup.freeze")).isEqualTo("1");
  }

  @Test
  void sigkillEndsAProcessTheV2FreezerHolds() throws IOException {
    Hierarchy h = unified();
    CgroupPath p = make(h, "a");
    long pid = aFrozenProcessIn(h, p);
    fs.kill(pid);
    assertThat(awaitFile(h, p, "cgroup.procs", String::isEmpty)).isEmpty();
  }
}
