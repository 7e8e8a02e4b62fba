package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;

/**
 * What every {@link org.lmctfy.cgroupfs.CgroupFs} must do, as the kernel does it: making and
 * removing cgroups, interface files, markers, owners and process membership. Runs on the fake and
 * on the kernel (see {@link CgroupFsContractSupport}); every expectation here was seen on a real
 * kernel.
 */
public abstract class CgroupFsContract extends CgroupFsContractSupport {

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupFsContract(ContractBackend backend) {
    super(backend);
  }

  @Test
  void theScratchParentExistsInEveryHierarchy() throws IOException {
    assertThat(scratch.hierarchies()).isNotEmpty().hasSameElementsAs(fs.hierarchies());
    for (Hierarchy h : fs.hierarchies()) {
      assertThat(fs.exists(h, scratch.path())).as(h.label()).isTrue();
      assertThat(fs.exists(h, at("missing"))).as(h.label()).isFalse();
    }
  }

  @Test
  void aNewCgroupExistsAndHasNoChildren() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      assertThat(fs.exists(h, p)).as(h.label()).isTrue();
      assertThat(fs.children(h, p)).as(h.label()).isEmpty();
    }
  }

  @Test
  void makingAnExistingCgroupIsEexist() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      assertErrno(Errno.EEXIST, () -> fs.makeCgroup(h, p));
    }
  }

  @Test
  void makingACgroupWithoutItsParentIsEnoent() {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupFsException e = assertErrno(Errno.ENOENT, () -> fs.makeCgroup(h, at("no/child")));
      assertThat(e.file()).isEqualTo(h.display(at("no/child"), null));
      assertThat(e.operation()).isEqualTo(CgroupFsException.Operation.MKDIR);
    }
  }

  @Test
  void removingACgroupRemovesItWithItsInterfaceFiles() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      assertThat(fs.hasFile(h, p, "cgroup.procs")).isTrue();
      fs.removeCgroup(h, p);
      assertThat(fs.exists(h, p)).as(h.label()).isFalse();
      assertThat(fs.hasFile(h, p, "cgroup.procs")).isFalse();
      assertThat(fs.children(h, scratch.path())).isEmpty();
    }
  }

  @Test
  void removingAMissingCgroupIsEnoent() {
    for (Hierarchy h : fs.hierarchies()) {
      assertErrno(Errno.ENOENT, () -> fs.removeCgroup(h, at("missing")));
    }
  }

  @Test
  void removingACgroupWithAChildIsEbusyAndKeepsBoth() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath child = make(h, "a/b");
      assertErrno(Errno.EBUSY, () -> fs.removeCgroup(h, child.parent()));
      assertThat(fs.exists(h, child)).isTrue();
    }
  }

  @Test
  void childrenAreTheSortedNamesOfSubcgroupsAndNoFiles() throws IOException {
    Hierarchy h = fs.hierarchies().get(0);
    make(h, "b");
    make(h, "a.1");
    make(h, "C");
    assertThat(fs.children(h, scratch.path())).containsExactly("C", "a.1", "b");
  }

  @Test
  void childrenOfAMissingCgroupIsEnoent() {
    Hierarchy h = fs.hierarchies().get(0);
    assertErrno(Errno.ENOENT, () -> fs.children(h, at("missing")));
  }

  @Test
  void everyV1CgroupHasTasksCgroupProcsAndNotifyOnRelease() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      if (h.version() == CgroupVersion.V1) {
        CgroupPath p = make(h, "a");
        assertThat(fs.hasFile(h, p, "tasks")).as(h.label()).isTrue();
        assertThat(fs.hasFile(h, p, "cgroup.procs")).as(h.label()).isTrue();
        assertThat(fs.hasFile(h, p, "notify_on_release")).as(h.label()).isTrue();
        assertThat(fs.hasFile(h, p, "cgroup.clone_children")).as(h.label()).isTrue();
      }
    }
  }

  @Test
  void rootOnlyFilesAreAbsentBelowTheRoot() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      if (h.version() == CgroupVersion.V1) {
        assertThat(fs.hasFile(h, scratch.path(), "release_agent")).as(h.label()).isFalse();
        assertThat(fs.hasFile(h, scratch.path(), "cgroup.sane_behavior")).as(h.label()).isFalse();
      }
    }
  }

  @Test
  void hasFileIsFalseForASubcgroupAndForUnknownNames() throws IOException {
    Hierarchy h = fs.hierarchies().get(0);
    make(h, "a");
    assertThat(fs.hasFile(h, scratch.path(), "a")).isFalse();
    assertThat(fs.hasFile(h, scratch.path(), "no.such.file")).isFalse();
    assertThat(fs.hasFile(h, at("missing"), "cgroup.procs")).isFalse();
  }

  @Test
  void readingOrWritingAnUnknownFileIsEnoent() {
    for (Hierarchy h : fs.hierarchies()) {
      assertErrno(Errno.ENOENT, () -> fs.read(h, scratch.path(), "no.such.file"));
      CgroupFsException e =
          assertErrno(Errno.ENOENT, () -> fs.write(h, scratch.path(), "no.such.file", "1"));
      assertThat(e.file()).isEqualTo(h.display(scratch.path(), "no.such.file"));
      assertThat(e.value()).isEqualTo("1");
    }
  }

  @Test
  void readingInAMissingCgroupIsEnoent() {
    Hierarchy h = fs.hierarchies().get(0);
    assertErrno(Errno.ENOENT, () -> fs.read(h, at("missing"), "cgroup.procs"));
    assertErrno(Errno.ENOENT, () -> fs.write(h, at("missing"), "cgroup.procs", "1"));
  }

  @Test
  void aNewCgroupHasNoMemberProcesses() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      assertThat(fs.read(h, p, "cgroup.procs")).as(h.label()).isEmpty();
    }
  }

  @Tag("needs-v1")
  @Test
  void notifyOnReleaseReadsOneForAnyNonZeroNumberAndRefusesGarbage() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "notify_on_release")).isEqualTo("0");
    assertThat(writeAndRead(h, p, "notify_on_release", "2")).isEqualTo("1");
    assertThat(writeAndRead(h, p, "notify_on_release", "0")).isEqualTo("0");
    assertWriteRefused(Errno.EINVAL, h, p, "notify_on_release", "abc");
  }

  @Test
  void aMarkerRoundTripsAndCanBeOverwritten() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      fs.setMarker(h, p, "state", "creating");
      assertThat(fs.marker(h, p, "state")).contains("creating");
      fs.setMarker(h, p, "state", "committed");
      assertThat(fs.marker(h, p, "state")).as(h.label()).contains("committed");
    }
  }

  @Test
  void addMarkerSetsAMarkerOnlyWhereThereIsNone() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      assertThat(fs.addMarker(h, p, "op.b", "destroying")).as(h.label()).isTrue();
      assertThat(fs.addMarker(h, p, "op.b", "creating")).as(h.label()).isFalse();
      assertThat(fs.marker(h, p, "op.b")).as(h.label()).contains("destroying");
    }
  }

  @Test
  void markersAndKeyListsLongerThanAPageRoundTrip() throws IOException {
    String value = "x".repeat(3000);
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      fs.setMarker(h, p, "long", value);
      List<String> keys = new ArrayList<>(List.of("long"));
      for (int i = 0; i < 40; i++) {
        String key = String.format("op.container-with-a-rather-long-name-%02d", i);
        fs.setMarker(h, p, key, "creating");
        keys.add(key);
      }
      Collections.sort(keys);
      assertThat(fs.marker(h, p, "long")).as(h.label()).contains(value);
      assertThat(fs.markerKeys(h, p)).as(h.label()).isEqualTo(keys);
    }
  }

  @Test
  void aCgroupHoldsAtMost128MarkersAndTheNextIsNoSpace() throws IOException {
    Hierarchy h = fs.hierarchies().get(0);
    CgroupPath p = make(h, "a");
    for (int i = 0; i < 128; i++) {
      fs.setMarker(h, p, "op.c" + i, "creating");
    }
    CgroupFsException e =
        catchThrowableOfType(
            CgroupFsException.class, () -> fs.setMarker(h, p, "op.c128", "creating"));
    assertThat(e).as("the 129th marker").isNotNull();
    assertThat(e.errno()).isEqualTo(Errno.ENOSPC);
    CgroupFsException replacing =
        catchThrowableOfType(
            CgroupFsException.class, () -> fs.setMarker(h, p, "op.c0", "destroying"));
    assertThat(replacing)
        .as("kernfs counts a replacement as a new marker until it is done")
        .isNotNull();
    assertThat(replacing.errno()).isEqualTo(Errno.ENOSPC);
    fs.removeMarker(h, p, "op.c1");
    fs.setMarker(h, p, "op.c0", "destroying");
    assertThat(fs.marker(h, p, "op.c0")).contains("destroying");
    assertThat(fs.markerKeys(h, p)).hasSize(127);
  }

  @Test
  void markerKeysListOnlyThisCgroupsMarkersSorted() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      assertThat(fs.markerKeys(h, p)).isEmpty();
      fs.setMarker(h, p, "op.b", "creating");
      fs.setMarker(h, p, "owner", "lmctfy");
      assertThat(fs.markerKeys(h, p)).as(h.label()).containsExactly("op.b", "owner");
      fs.removeMarker(h, p, "op.b");
      assertThat(fs.markerKeys(h, p)).containsExactly("owner");
      assertThat(fs.markerKeys(h, scratch.path())).isEmpty();
    }
  }

  @Test
  void killEndsAProcessAndItLeavesItsCgroups() throws IOException {
    Hierarchy h = membershipHierarchy();
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    fs.kill(pid);
    stop(pid); // waits until it has exited
    assertThat(fs.read(h, p, "cgroup.procs")).isEmpty();
    assertErrno(Errno.ESRCH, () -> fs.kill(NO_SUCH_PID));
  }

  @Test
  void anAbsentMarkerIsEmptyAndRemovingItIsFine() throws IOException {
    Hierarchy h = fs.hierarchies().get(0);
    CgroupPath p = make(h, "a");
    assertThat(fs.marker(h, p, "state")).isEmpty();
    fs.removeMarker(h, p, "state");
    fs.setMarker(h, p, "state", "x");
    fs.removeMarker(h, p, "state");
    assertThat(fs.marker(h, p, "state")).isEmpty();
  }

  @Test
  void markersGoWithTheirCgroup() throws IOException {
    Hierarchy h = fs.hierarchies().get(0);
    CgroupPath p = make(h, "a");
    fs.setMarker(h, p, "state", "x");
    assertThat(fs.marker(h, scratch.path(), "state")).isEmpty();
    fs.removeCgroup(h, p);
    fs.makeCgroup(h, p);
    assertThat(fs.marker(h, p, "state")).isEmpty();
  }

  @Test
  void aMarkerOnAMissingCgroupIsEnoent() {
    Hierarchy h = fs.hierarchies().get(0);
    assertErrno(Errno.ENOENT, () -> fs.setMarker(h, at("missing"), "state", "x"));
    assertErrno(Errno.ENOENT, () -> fs.marker(h, at("missing"), "state"));
  }

  @Test
  void chownChangesTheOwnerOfTheDirectoryAndOfOneFile() throws IOException {
    Hierarchy h = fs.hierarchies().get(0);
    CgroupPath p = make(h, "a");
    assertThat(fs.owner(h, p, null)).isEqualTo(new Owner(0, 0));
    fs.chown(h, p, null, 4321, 4322);
    fs.chown(h, p, "cgroup.procs", 4321, -1);
    assertThat(fs.owner(h, p, null)).isEqualTo(new Owner(4321, 4322));
    assertThat(fs.owner(h, p, "cgroup.procs")).isEqualTo(new Owner(4321, 0));
    assertThat(fs.owner(h, p, firstOtherFile(h))).isEqualTo(new Owner(0, 0));
  }

  private static String firstOtherFile(Hierarchy h) {
    return h.version() == CgroupVersion.V1 ? "tasks" : "cgroup.events";
  }

  @Test
  void chownOfAMissingCgroupIsEnoent() {
    Hierarchy h = fs.hierarchies().get(0);
    assertErrno(Errno.ENOENT, () -> fs.chown(h, at("missing"), null, 1, 1));
  }

  @Test
  void theCgroupsOfAnUnknownPidIsEsrch() {
    assertErrno(Errno.ESRCH, () -> fs.cgroupsOf(NO_SUCH_PID));
  }

  @Test
  void aNewProcessIsOutsideTheScratchParent() throws IOException {
    long pid = process();
    Map<Hierarchy, CgroupPath> cgroups = fs.cgroupsOf(pid);
    assertThat(cgroups).isNotEmpty();
    cgroups.values().forEach(p -> assertThat(scratch.path().isAncestorOrSelf(p)).isFalse());
  }

  @Test
  void writingAPidToCgroupProcsMovesTheProcess() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      if (h.has("cpuset")) {
        continue; // needs cpus and mems first: see the v1 controllers contract
      }
      long pid = process();
      CgroupPath p = make(h, "a");
      fs.write(h, p, "cgroup.procs", Long.toString(pid));
      assertThat(read(h, p, "cgroup.procs")).as(h.label()).isEqualTo(Long.toString(pid));
      assertThat(fs.cgroupsOf(pid)).as(h.label()).containsEntry(h, p);
      stop(pid);
    }
  }

  @Tag("needs-v1")
  @Test
  void tasksListsTheThreadsOfAMovedProcess() throws IOException {
    Hierarchy h = hierarchy("memory");
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    assertThat(fs.read(h, p, "tasks").lines()).contains(Long.toString(pid));
  }

  @Test
  void writingAnUnknownPidIsEsrchAndGarbageIsEinval() throws IOException {
    for (Hierarchy h : fs.hierarchies()) {
      CgroupPath p = make(h, "a");
      assertErrno(Errno.ESRCH, () -> fs.write(h, p, "cgroup.procs", Long.toString(NO_SUCH_PID)));
      assertErrno(Errno.EINVAL, () -> fs.write(h, p, "cgroup.procs", "abc"));
      assertErrno(Errno.EINVAL, () -> fs.write(h, p, "cgroup.procs", "-1"));
    }
  }

  @Test
  void aCgroupWithAProcessCannotBeRemovedUntilTheProcessLeaves() throws IOException {
    Hierarchy h = membershipHierarchy();
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    assertErrno(Errno.EBUSY, () -> fs.removeCgroup(h, p));
    fs.write(h, scratch.path(), "cgroup.procs", Long.toString(pid));
    fs.removeCgroup(h, p);
    assertThat(fs.exists(h, p)).isFalse();
  }

  @Test
  void aProcessThatExitedLeavesItsCgroup() throws IOException {
    Hierarchy h = membershipHierarchy();
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    stop(pid);
    assertThat(fs.read(h, p, "cgroup.procs")).isEmpty();
    fs.removeCgroup(h, p);
  }
}
