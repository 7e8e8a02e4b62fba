package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;

/**
 * Delegation as the kernel enforces it on the unified hierarchy: root delegates {@code t} to a user
 * (the directory, {@code cgroup.procs}, {@code cgroup.subtree_control}, {@code cgroup.threads}, as
 * systemd does), and the user, without capabilities, may make and remove cgroups below {@code t},
 * owns what it makes, writes only files it owns, sets markers only on directories it owns, cannot
 * chown, and moves a process only where it may write {@code cgroup.procs} of the common ancestor.
 * Every refusal leaves the tree as it was.
 */
public abstract class CgroupDelegationContract extends CgroupFsContractSupport {
  /** The user the cases delegate to: a uid no account of this machine has. */
  protected static final int TENANT = 64_999;

  private final ContractBackend backend;
  private CgroupFs tenant;
  private Hierarchy h;
  private CgroupPath t;

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupDelegationContract(ContractBackend backend) {
    super(backend);
    this.backend = backend;
  }

  @BeforeEach
  final void delegate() throws IOException {
    h = unified();
    t = make(h, "t");
    fs.chown(h, t, null, TENANT, TENANT);
    for (String file : new String[] {"cgroup.procs", "cgroup.subtree_control", "cgroup.threads"}) {
      fs.chown(h, t, file, TENANT, TENANT);
    }
    tenant = backend.asUser(fs, TENANT, TENANT);
  }

  @AfterEach
  final void release() throws Exception {
    if (tenant != null) {
      backend.release(tenant);
    }
  }

  @Test
  void theTenantMakesAndRemovesCgroupsBelowItsDirectoryAndOwnsWhatItMakes() throws IOException {
    CgroupPath a = t.resolve("a");
    tenant.makeCgroup(h, a);
    assertThat(fs.owner(h, a, null)).isEqualTo(new Owner(TENANT, TENANT));
    assertThat(fs.owner(h, a, "cgroup.procs")).isEqualTo(new Owner(TENANT, TENANT));
    assertThat(fs.owner(h, a, "cgroup.max.descendants")).isEqualTo(new Owner(TENANT, TENANT));
    assertThat(tenant.effectiveUid()).isEqualTo(TENANT);
    tenant.removeCgroup(h, a);
    assertThat(fs.exists(h, a)).isFalse();
  }

  @Test
  void theTenantCannotMakeOrRemoveCgroupsOutsideItsDirectory() throws IOException {
    CgroupPath other = make(h, "other");
    assertErrno(Errno.EACCES, () -> tenant.makeCgroup(h, scratch.path().resolve("x")));
    assertThat(fs.exists(h, scratch.path().resolve("x"))).isFalse();
    assertErrno(Errno.EACCES, () -> tenant.removeCgroup(h, other));
    assertThat(fs.exists(h, other)).isTrue();
  }

  @Test
  void theTenantWritesOnlyFilesItOwns() throws IOException {
    // its own directory's limits stay root's (systemd hands over only the delegation files)
    assertErrno(Errno.EACCES, () -> tenant.write(h, t, "cgroup.max.descendants", "5"));
    assertThat(read(h, t, "cgroup.max.descendants")).isEqualTo("max");
    CgroupPath a = t.resolve("a");
    tenant.makeCgroup(h, a);
    tenant.write(h, a, "cgroup.max.descendants", "5");
    assertThat(read(h, a, "cgroup.max.descendants")).isEqualTo("5");
  }

  @Test
  void theTenantSetsMarkersOnlyOnDirectoriesItOwns() throws IOException {
    tenant.setMarker(h, t, "test", "tenant");
    assertThat(fs.marker(h, t, "test")).contains("tenant");
    assertErrno(Errno.EACCES, () -> tenant.setMarker(h, scratch.path(), "test", "tenant"));
    assertThat(fs.marker(h, scratch.path(), "test")).isEmpty();
    fs.setMarker(h, t.parent(), "root", "root's");
    assertErrno(Errno.EACCES, () -> tenant.removeMarker(h, t.parent(), "root"));
    assertThat(fs.marker(h, t.parent(), "root")).contains("root's");
  }

  @Test
  void theTenantCannotChangeOwners() throws IOException {
    CgroupPath a = t.resolve("a");
    tenant.makeCgroup(h, a);
    assertErrno(Errno.EPERM, () -> tenant.chown(h, a, null, 0, 0));
    assertThat(fs.owner(h, a, null)).isEqualTo(new Owner(TENANT, TENANT));
  }

  @Test
  void aMoveNeedsCgroupProcsOfTheCommonAncestor() throws IOException {
    CgroupPath a = t.resolve("a");
    tenant.makeCgroup(h, a);
    CgroupPath other = make(h, "other");
    CgroupPath inside = make(h, "t/inside"); // made by root below the tenant's directory
    long pid = process();
    fs.write(h, other, "cgroup.procs", Long.toString(pid));
    // from root's other into the tenant's a: the common ancestor is the scratch parent, root's
    assertErrno(Errno.EACCES, () -> tenant.write(h, a, "cgroup.procs", Long.toString(pid)));
    assertThat(fs.cgroupsOf(pid).get(h)).isEqualTo(other);
    // from t/inside to t/a: the common ancestor is t, whose cgroup.procs is the tenant's
    fs.write(h, inside, "cgroup.procs", Long.toString(pid));
    tenant.write(h, a, "cgroup.procs", Long.toString(pid));
    assertThat(fs.cgroupsOf(pid).get(h)).isEqualTo(a);
    assertThat(h.version()).isEqualTo(CgroupVersion.V2);
  }
}
