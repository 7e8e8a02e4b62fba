package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * Create, get, exists, list and destroy, asserted on the cgroup tree, on the fake and on this
 * machine's kernel (each subclass says how to open the backend). Containers live below a scratch
 * parent, which is the API's root.
 */
abstract class LifecycleContract extends ApiOnScratch {
  static final ContainerSpec CPU_AND_MEMORY =
      ContainerSpec.parse("cpu { limit: 1000 } memory { limit: 104857600 }");

  LifecycleContract(ContractBackend backend) {
    super(backend);
  }

  List<Hierarchy> managed() {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
        .toList();
  }

  /** Every cgroup below the scratch parent, as {@code label:/path} relative to it. */
  List<String> tree() throws IOException {
    List<String> out = new ArrayList<>();
    for (Hierarchy h : fs.hierarchies()) {
      walk(h, scratch.path(), out);
    }
    return out;
  }

  private void walk(Hierarchy h, CgroupPath p, List<String> out) throws IOException {
    for (String c : fs.children(h, p)) {
      CgroupPath child = p.resolve(c);
      out.add(h.label() + ":" + child.relativeTo(scratch.path()));
      walk(h, child, out);
    }
  }

  CgroupPath path(String name) {
    return CgroupPath.of(name).under(scratch.path());
  }

  Hierarchy hierarchy(String controller) {
    return fs.hierarchy(controller).orElseThrow();
  }

  static LmctfyException failure(
      ErrorCode code, org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    return assertThatLmctfyException(call).hasCode(code).actual();
  }

  @Test
  void createMakesTheContainerInEveryManagedHierarchyWithItsLimits() throws IOException {
    Container c = api.create("/test", CPU_AND_MEMORY);
    assertThat(c.name()).isEqualTo("/test");
    for (Hierarchy h : managed()) {
      assertThat(fs.exists(h, path("/test"))).as(h.label()).isTrue();
    }
    Hierarchy cpu = hierarchy("cpu");
    Hierarchy memory = hierarchy("memory");
    if (cpu.version() == CgroupVersion.V1) {
      assertThat(fs.read(cpu, path("/test"), "cpu.shares").strip()).isEqualTo("1024");
    } else {
      assertThat(fs.read(cpu, path("/test"), "cpu.weight").strip())
          .as("one CPU's share is the default weight")
          .isEqualTo("100");
    }
    String limitFile =
        memory.version() == CgroupVersion.V1 ? "memory.limit_in_bytes" : "memory.max";
    assertThat(fs.read(memory, path("/test"), limitFile).strip()).isEqualTo("104857600");
    assertThat(api.exists("/test")).isTrue();
    assertThat(api.get("test").name()).isEqualTo("/test");
  }

  @Test
  @Tag("needs-v1") // a v1 cpuset, or a cgroup in one hierarchy of several
  void createGivesAV1CpusetContainerItsParentsCpusAndMemoryNodesSoThatTasksCanJoin()
      throws IOException {
    Hierarchy cpuset = hierarchy("cpuset");
    api.create("/test", CPU_AND_MEMORY);
    for (String file : new String[] {"cpuset.cpus", "cpuset.mems"}) {
      String parent = fs.read(cpuset, scratch.path(), file);
      assertThat(parent.strip()).as(file + " of the scratch parent").isNotEmpty();
      assertThat(fs.read(cpuset, path("/test"), file)).as(file).isEqualTo(parent);
    }
  }

  @Test
  void destroyRemovesEveryHierarchysCgroupAndTheNameIsFreeAgain() throws IOException {
    api.create("/test", CPU_AND_MEMORY);
    api.destroy("/test");
    assertThat(tree()).isEmpty();
    assertThat(api.exists("/test")).isFalse();
    failure(ErrorCode.NOT_FOUND, () -> api.get("/test"));
    failure(ErrorCode.NOT_FOUND, () -> api.destroy("/test"));
    api.create("/test", CPU_AND_MEMORY);
    assertThat(api.exists("/test")).isTrue();
  }

  @Test
  void creatingAnExistingContainerIsAlreadyExistsAndChangesNothing() throws IOException {
    api.create("/test", CPU_AND_MEMORY);
    List<String> before = tree();
    failure(ErrorCode.ALREADY_EXISTS, () -> api.create("/test", ContainerSpec.empty()));
    assertThat(tree()).isEqualTo(before);
  }

  @Test
  void aCreateThatFindsNoRoomForItsIntentOnTheParentChangesNothing() throws IOException {
    Hierarchy anchor = managed().get(0);
    for (int i = 0;
        i < 128;
        i++) { // the kernel's most user xattrs on a cgroup: 128 creates in flight
      fs.setMarker(anchor, scratch.path(), "filler" + i, "x");
    }
    LmctfyException e =
        failure(ErrorCode.RESOURCE_EXHAUSTED, () -> api.create("/test", CPU_AND_MEMORY));
    assertThat(e.getMessage()).contains("ENOSPC", anchor.display(scratch.path(), null));
    assertThat(tree()).isEmpty();
    fs.removeMarker(anchor, scratch.path(), "filler0");
    api.create("/test", CPU_AND_MEMORY);
    assertThat(api.exists("/test")).isTrue();
  }

  @Test
  void aForeignCgroupInsideThatIsNoContainerStopsDestroyUntilItIsGoneThenDestroyFinishes()
      throws IOException {
    api.create("/test", CPU_AND_MEMORY);
    // on v1 a hierarchy removed late (the ones after it go first); the only one on v2
    Hierarchy second = managed().get(Math.min(1, managed().size() - 1));
    fs.makeCgroup(second, path("/test/_stray")); // no container's name: lmctfy never removes it
    LmctfyException e = failure(ErrorCode.FAILED_PRECONDITION, () -> api.destroy("/test"));
    assertThat(e.getMessage()).contains("/test/_stray", "not made by lmctfy");
    assertThat(tree()).contains(second.label() + ":/test/_stray");
    fs.removeCgroup(second, path("/test/_stray"));
    api.destroy("/test");
    assertThat(tree()).isEmpty();
    assertThat(api.exists("/test")).isFalse();
  }

  @Test
  void aChildNeedsItsParent() throws IOException {
    LmctfyException e =
        failure(ErrorCode.NOT_FOUND, () -> api.create("/test/abhishek", CPU_AND_MEMORY));
    assertThat(e.getMessage()).contains("/test");
    assertThat(tree()).isEmpty();
  }

  @Test
  void destroyIsRecursiveChildrenFirst() throws IOException {
    api.create("/test", CPU_AND_MEMORY);
    api.create("/test/a", ContainerSpec.empty());
    api.create("/test/a/b", ContainerSpec.parse("memory { limit: 52428800 }"));
    api.create("/test/c", ContainerSpec.empty());
    assertThat(api.get("/test").listSubcontainers(ListPolicy.RECURSIVE))
        .containsExactly("/test/a", "/test/a/b", "/test/c");
    assertThat(api.get("/test").listSubcontainers(ListPolicy.SELF))
        .containsExactly("/test/a", "/test/c");
    api.destroy("/test");
    assertThat(tree()).isEmpty();
  }

  @Test
  void relativeNamesResolveAgainstTheCallersContainerWhichIsTheRootHere() throws IOException {
    api.create("test", ContainerSpec.empty());
    api.create("test/./x/../y", ContainerSpec.empty());
    assertThat(api.exists("/test/y")).isTrue();
    assertThat(api.get("/").listSubcontainers(ListPolicy.RECURSIVE))
        .containsExactly("/test", "/test/y");
  }

  @Test
  void badNamesAreInvalidArgumentsAndTouchNothing() throws IOException {
    for (String bad :
        new String[] {
          "",
          "/a b",
          "/../x",
          "/_x",
          "/a/tasks",
          "/memory.max",
          "/cgroup.procs",
          "/" + "x".repeat(201),
          "/a\0b",
          "/ü"
        }) {
      failure(ErrorCode.INVALID_ARGUMENT, () -> api.create(bad, ContainerSpec.empty()));
    }
    assertThat(tree()).isEmpty();
  }

  @Test
  @Tag("needs-v1") // a v1 cpuset, or a cgroup in one hierarchy of several
  void aStrayCgroupInOneHierarchyMakesThePathPartialAndCreateSaysWhere() throws IOException {
    Hierarchy memory = hierarchy("memory");
    fs.makeCgroup(memory, path("/test"));
    LmctfyException exists = failure(ErrorCode.FAILED_PRECONDITION, () -> api.exists("/test"));
    assertThat(exists.getMessage()).contains("partial", memory.display(path("/test"), null));
    failure(ErrorCode.FAILED_PRECONDITION, () -> api.get("/test"));
    LmctfyException create =
        failure(ErrorCode.ALREADY_EXISTS, () -> api.create("/test", CPU_AND_MEMORY));
    assertThat(create.getMessage())
        .contains(memory.display(path("/test"), null), "not made by lmctfy");
    assertThat(tree()).containsExactly("memory:/test");
  }

  @Test
  @Tag("needs-v1") // a v1 cpuset, or a cgroup in one hierarchy of several
  void destroyByNameRemovesAnEmptyStrayCgroupThatLmctfyDidNotMake() throws IOException {
    fs.makeCgroup(hierarchy("memory"), path("/test"));
    api.destroy("/test");
    assertThat(tree()).isEmpty();
    api.create("/test", CPU_AND_MEMORY);
  }

  @Test
  @Tag("needs-v1") // a v1 cpuset, or a cgroup in one hierarchy of several
  void cleanupLeavesForeignPartialCgroupsAndReportsThem() throws IOException {
    fs.makeCgroup(hierarchy("memory"), path("/stray"));
    api.create("/test", CPU_AND_MEMORY);
    var report = api.cleanup();
    assertThat(report.removed()).isEmpty();
    assertThat(report.failures())
        .singleElement()
        .asString()
        .contains("/stray", "not made by lmctfy");
    assertThat(tree()).contains("memory:/stray", "memory:/test");
  }

  @Test
  void theIssue37SequenceEndsCleanWhenTheKernelRefusesHalfWay() throws IOException {
    api.create("/test", ContainerSpec.parse("cpu { limit: 1000 } memory { limit: -1 }"));
    Hierarchy last = managed().get(managed().size() - 1);
    // A refusal validation cannot foresee: the last hierarchy's mkdir fails (EAGAIN from v2's
    // cgroup.max.descendants) after every v1 cgroup of the new container was made.
    refuseNextMkdir(last, path("/test"));
    LmctfyException e =
        failure(
            ErrorCode.RESOURCE_EXHAUSTED,
            () ->
                api.create(
                    "/test/abhishek",
                    ContainerSpec.parse("cpu { limit: 1000 } memory { limit: 1000000 }")));
    assertThat(e.file()).contains(last.display(path("/test/abhishek"), null));
    assertThat(e.getMessage())
        .contains(
            "EAGAIN",
            "cgroup.max.descendants of " + last.display(path("/test"), null) + " is 0",
            "it has 0 descendants");
    assertThat(tree())
        .containsExactlyInAnyOrderElementsOf(
            managed().stream().map(h -> h.label() + ":/test").toList());
    failure(ErrorCode.NOT_FOUND, () -> api.destroy("/test/abhishek"));
    allowMkdir(last, path("/test"));
    api.create(
        "/test/abhishek", ContainerSpec.parse("cpu { limit: 1000 } memory { limit: 1000000 }"));
    api.destroy("/test/abhishek");
    api.destroy("/test");
    assertThat(tree()).isEmpty();
  }

  /** Makes mkdir below {@code parent} fail with EAGAIN, as v2's cgroup.max.descendants does. */
  void refuseNextMkdir(Hierarchy h, CgroupPath parent) throws IOException {
    assertThat(h.version())
        .as("the last managed hierarchy is the unified one")
        .isEqualTo(CgroupVersion.V2);
    fs.write(h, parent, "cgroup.max.descendants", "0");
  }

  void allowMkdir(Hierarchy h, CgroupPath parent) throws IOException {
    fs.write(h, parent, "cgroup.max.descendants", "max");
  }

  @Test
  void errorsNameTheFileTheValueAndTheErrno() throws IOException {
    api.create("/test", ContainerSpec.parse("cpu { max_limit: 500 }"));
    ContainerSpec above = ContainerSpec.parse("cpu { max_limit: 1000 }");
    if (fs.hierarchy("cpu").orElseThrow().version() == CgroupVersion.V2) {
      // v2 lets a child's cpu.max exceed its parent's (the parent's cap still applies): no error
      api.create("/test/x", above);
      assertThat(fs.read(fs.hierarchy("cpu").orElseThrow(), path("/test/x"), "cpu.max").strip())
          .isEqualTo("100000 100000");
      return;
    }
    LmctfyException e = failure(ErrorCode.INVALID_ARGUMENT, () -> api.create("/test/x", above));
    assertThat(e.getMessage()).contains("cpu.max_limit", "1000", "500");
  }

  @Test
  void aFieldTheHostCannotHonourIsRefusedNamingItNotIgnored() throws IOException {
    boolean v1 = hierarchy("memory").version() == CgroupVersion.V1;
    // memory.high exists only on v2, memory.swappiness only on v1
    String field = v1 ? "high: 2048000" : "swappiness: 10";
    LmctfyException e =
        failure(
            ErrorCode.FAILED_PRECONDITION,
            () ->
                api.create(
                    "/test", ContainerSpec.parse("memory { limit: 4096000 " + field + " }")));
    assertThat(e.getMessage()).contains(v1 ? "memory.high" : "memory.swappiness", v1 ? "v1" : "v2");
    LmctfyException perf =
        failure(
            ErrorCode.FAILED_PRECONDITION,
            () -> api.create("/test", ContainerSpec.parse("monitoring { }")));
    assertThat(perf.getMessage()).contains("monitoring", "perf_event");
    assertThat(tree()).isEmpty();
  }
}
