package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeRun;

class TenLinesTest {

  @Test
  void theTenLinesCapTheJobRunTheProgramInsideAndLeaveNothing() throws Exception {
    FakeCgroupFs fs = FakeCgroupFs.create();
    List<String> commands = new ArrayList<>();
    fs.processes()
        .onRun(
            command -> {
              commands.add(command.toString());
              return FakeRun.exits(0);
            });
    ContainerApi api = ContainerApi.open(fs);
    long before = fs.record().mutations().size();

    assertThat(TenLines.tenLines(api)).isZero();

    assertThat(fs.record().mutations().subList((int) before, fs.record().mutations().size()))
        .anySatisfy(
            op -> {
              assertThat(op.file()).isEqualTo("cpu.max");
              assertThat(op.value()).isEqualTo("50000 100000");
            })
        .anySatisfy(
            op -> {
              assertThat(op.file()).isEqualTo("memory.max");
              assertThat(op.value()).isEqualTo("67108864");
            });
    assertThat(commands).containsExactly("[cat, /proc/self/cgroup]");
    CgroupAssertions.assertThat(fs).hasNoCgroupsButTheRoots();
  }
}
