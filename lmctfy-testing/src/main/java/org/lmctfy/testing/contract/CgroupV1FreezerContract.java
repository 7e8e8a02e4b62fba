package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The v1 freezer, with processes, as this machine's kernel has it: what pause, resume and killAll
 * rely on. A frozen cgroup freezes the cgroups below it ({@code parent_freezing}); a thaw of one of
 * those alone leaves it frozen; SIGKILL does not end a process the freezer holds until it is thawed
 * (which is why killAll freezes, kills, then thaws).
 */
public abstract class CgroupV1FreezerContract extends CgroupFreezerContractSupport {
  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupV1FreezerContract(ContractBackend backend) {
    super(backend);
  }

  @Test
  void aProcessMovedIntoAFrozenCgroupIsFrozen() throws IOException {
    Hierarchy h = hierarchy("freezer");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "freezer.state", "FROZEN");
    long pid = process();
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    assertThat(awaitFile(h, p, "freezer.state", s -> s.equals("FROZEN\n"))).isEqualTo("FROZEN\n");
    fs.write(h, p, "freezer.state", "THAWED");
    assertThat(awaitFile(h, p, "freezer.state", s -> s.equals("THAWED\n"))).isEqualTo("THAWED\n");
  }

  @Test
  void aFrozenParentFreezesItsChildrenAndThawingAChildAloneKeepsItFrozen() throws IOException {
    Hierarchy h = hierarchy("freezer");
    CgroupPath child = make(h, "a/b");
    long pid = process();
    fs.write(h, child, "cgroup.procs", Long.toString(pid));
    fs.write(h, child.parent(), "freezer.state", "FROZEN");
    awaitFile(h, child.parent(), "freezer.state", s -> s.equals("FROZEN\n"));
    assertThat(read(h, child, "freezer.state")).isEqualTo("FROZEN");
    assertThat(read(h, child, "freezer.parent_freezing")).isEqualTo("1");
    assertThat(read(h, child, "freezer.self_freezing")).isEqualTo("0");
    fs.write(h, child, "freezer.state", "THAWED");
    assertThat(read(h, child, "freezer.state")).isEqualTo("FROZEN");
    fs.write(h, child.parent(), "freezer.state", "THAWED");
    assertThat(awaitFile(h, child, "freezer.state", s -> s.equals("THAWED\n")))
        .isEqualTo("THAWED\n");
  }

  @Test
  void sigkillOfAProcessTheFreezerHoldsTakesEffectOnlyOnceItIsThawed() throws IOException {
    Hierarchy h = hierarchy("freezer");
    CgroupPath p = make(h, "a");
    long pid = aFrozenProcessIn(h, p);
    fs.kill(pid);
    settle();
    assertThat(read(h, p, "cgroup.procs")).as("killed but frozen").isEqualTo(Long.toString(pid));
    fs.write(h, p, "freezer.state", "THAWED");
    assertThat(awaitFile(h, p, "cgroup.procs", String::isEmpty)).isEmpty();
  }
}
