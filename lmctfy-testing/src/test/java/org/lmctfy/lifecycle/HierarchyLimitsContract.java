package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;
import static org.lmctfy.testing.internal.host.MachineLacks.assumeHas;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The kubelet's caps for a pod with writable cgroups ({@code cgroup.max.descendants} 250, {@code
 * cgroup.max.depth} 50), written on the API's root where the API can read them: the create that
 * would be the cap's 251st descendant, or 51 levels down, is RESOURCE_EXHAUSTED naming the file,
 * its value and the cgroup that holds it, and changes nothing; a destroy makes room. On the fake
 * and on this machine's kernel (any layout with cgroup2: the caps need no controller).
 */
abstract class HierarchyLimitsContract extends ApiOnScratch {
  static final int MAX_DESCENDANTS = 250;
  static final int MAX_DEPTH = 50;

  HierarchyLimitsContract(ContractBackend backend) {
    super(backend);
  }

  Hierarchy unified;

  @BeforeEach
  void theKubeletsCapsOnTheRoot() throws IOException {
    unified =
        fs.hierarchies().stream()
            .filter(h -> h.version() == CgroupVersion.V2)
            .findFirst()
            .orElse(null);
    assumeHas(unified != null, "this layout has no cgroup2 hierarchy");
    fs.write(unified, scratch.path(), "cgroup.max.descendants", Integer.toString(MAX_DESCENDANTS));
    fs.write(unified, scratch.path(), "cgroup.max.depth", Integer.toString(MAX_DEPTH));
  }

  /** Every cgroup below the root in every hierarchy, and the root's markers. */
  List<String> state() throws IOException {
    List<String> out = new ArrayList<>();
    for (Hierarchy h : fs.hierarchies()) {
      walk(h, scratch.path(), out);
      out.add(h.label() + " markers " + fs.markerKeys(h, scratch.path()));
    }
    return out;
  }

  private void walk(Hierarchy h, CgroupPath p, List<String> out) throws IOException {
    for (String c : fs.children(h, p)) {
      out.add(h.label() + ":" + p.resolve(c).relativeTo(scratch.path()));
      walk(h, p.resolve(c), out);
    }
  }

  @Test
  void the251stDescendantIsResourceExhaustedNamingTheCapAndNothingChanges() throws IOException {
    for (int i = 1; i <= MAX_DESCENDANTS; i++) {
      api.create("/c" + i, ContainerSpec.empty());
    }
    List<String> before = state();
    LmctfyException e =
        assertThatLmctfyException(() -> api.create("/c251", ContainerSpec.empty()))
            .hasCode(ErrorCode.RESOURCE_EXHAUSTED)
            .hasErrno(Errno.EAGAIN)
            .actual();
    assertThat(e.getMessage())
        .startsWith("create /c251: mkdir " + unified.display(scratch.path().resolve("c251"), null))
        .contains(
            "cgroup.max.descendants of "
                + unified.display(scratch.path(), null)
                + " is 250 and it has 250 descendants");
    assertThat(state()).isEqualTo(before);
    assertThat(api.exists("/c251")).isFalse();

    api.destroy("/c1"); // a removed cgroup no longer counts, at once
    api.create("/c251", ContainerSpec.empty());
    assertThat(api.exists("/c251")).isTrue();
  }

  @Test
  void aContainer51LevelsDownIsResourceExhaustedNamingTheDepthCap() throws IOException {
    StringBuilder name = new StringBuilder();
    for (int level = 1; level <= MAX_DEPTH; level++) {
      name.append("/d").append(level);
      api.create(name.toString(), ContainerSpec.empty());
    }
    List<String> before = state();
    String deeper = name + "/d51";
    LmctfyException e =
        assertThatLmctfyException(() -> api.create(deeper, ContainerSpec.empty()))
            .hasCode(ErrorCode.RESOURCE_EXHAUSTED)
            .hasErrno(Errno.EAGAIN)
            .actual();
    assertThat(e.getMessage())
        .contains(
            "cgroup.max.depth of "
                + unified.display(scratch.path(), null)
                + " is 50 and the new cgroup would be at depth 51 below it");
    assertThat(state()).isEqualTo(before);
  }
}
