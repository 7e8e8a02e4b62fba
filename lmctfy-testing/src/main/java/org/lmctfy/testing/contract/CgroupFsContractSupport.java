package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.lmctfy.testing.internal.host.MachineLacks.assumeHas;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * What the contract suites share: a backend, a scratch parent in every hierarchy for each case,
 * processes the case started, and helpers that assert errnos. A backend's test subclasses each
 * contract ({@link CgroupFsContract}, {@link CgroupV1ControllersContract}, {@link
 * CgroupV2Contract}...) with a constructor that passes its {@link ContractBackend}.
 */
public abstract class CgroupFsContractSupport {
  /** A pid no Linux process can have: above the kernel's largest {@code pid_max}. */
  protected static final long NO_SUCH_PID = 99_999_999L;

  /** The backend under test, set before each case. */
  protected CgroupFs fs;

  /** The scratch parent each case works under, removed after it. */
  protected ScratchCgroups scratch;

  private final ContractBackend backend;
  private final List<Long> started = new ArrayList<>();

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupFsContractSupport(ContractBackend backend) {
    this.backend = backend;
  }

  @BeforeEach
  final void openScratch() throws IOException {
    fs = backend.open();
    scratch = ScratchCgroups.on(fs);
  }

  @AfterEach
  final void closeScratch() throws IOException {
    try {
      for (long pid : started) {
        backend.stopProcess(fs, pid);
      }
    } finally {
      started.clear();
      if (scratch != null) {
        scratch.close();
      }
    }
  }

  /**
   * Whether a case may move the test's own process (see {@link ContractBackend}).
   *
   * @return whether a case may move the test's own process (see {@link ContractBackend})
   */
  protected final boolean mayMoveTheTestProcess() {
    return backend.mayMoveTheTestProcess();
  }

  /**
   * A process for this case; it is stopped after the case.
   *
   * @return A process for this case; it is stopped after the case
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  protected final long process() throws IOException {
    long pid = backend.startProcess(fs);
    started.add(pid);
    return pid;
  }

  /**
   * Stops a process of this case before the case ends.
   *
   * @param pid the process id
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  protected final void stop(long pid) throws IOException {
    started.remove(pid);
    backend.stopProcess(fs, pid);
  }

  /**
   * The hierarchy carrying {@code controller}; the case is skipped where the layout has none.
   *
   * @param controller the controller's name ({@code "memory"}) or the named hierarchy's name
   * @return the hierarchy carrying {@code controller}; the case is skipped where the layout has
   *     none
   */
  protected final Hierarchy hierarchy(String controller) {
    Optional<Hierarchy> h = fs.hierarchy(controller);
    assumeHas(
        h.isPresent() && h.get().version() == CgroupVersion.V1,
        "this layout has no v1 " + controller + " hierarchy");
    return h.get();
  }

  /** Checks {@code rule} on a fresh cgroup {@code a} of its controller's v1 hierarchy. */
  final void checkOnV1(FileRule rule) throws IOException {
    Hierarchy h = hierarchy(rule.controller());
    rule.check(this, h, make(h, "a"));
  }

  /**
   * A hierarchy for cases of process membership that hold on every version: v1 memory where it is
   * mounted, else the unified hierarchy.
   *
   * @return the hierarchy
   */
  protected final Hierarchy membershipHierarchy() {
    return fs.hierarchy("memory")
        .filter(h -> h.version() == CgroupVersion.V1)
        .or(
            () ->
                fs.hierarchies().stream().filter(h -> h.version() == CgroupVersion.V2).findFirst())
        .orElseThrow(() -> new AssertionError("no v1 memory and no unified hierarchy"));
  }

  /**
   * The unified hierarchy; the case is skipped where the layout has none.
   *
   * @return the unified hierarchy; the case is skipped where the layout has none
   */
  protected final Hierarchy unified() {
    Optional<Hierarchy> h =
        fs.hierarchies().stream().filter(x -> x.version() == CgroupVersion.V2).findFirst();
    assumeHas(h.isPresent(), "this layout has no cgroup2 hierarchy");
    return h.get();
  }

  /**
   * {@code name} below the scratch parent.
   *
   * @param name a path relative to the scratch parent ({@code "a/b"})
   * @return {@code name} below the scratch parent
   */
  protected final CgroupPath at(String name) {
    CgroupPath p = scratch.path();
    for (String c : name.split("/")) {
      p = p.resolve(c);
    }
    return p;
  }

  /**
   * Makes {@code name} (and its missing ancestors) below the scratch parent.
   *
   * @param h the hierarchy
   * @param name a path relative to the scratch parent ({@code "a/b"})
   * @return the CgroupPath
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  protected final CgroupPath make(Hierarchy h, String name) throws IOException {
    CgroupPath p = scratch.path();
    for (String c : name.split("/")) {
      p = p.resolve(c);
      if (!fs.exists(h, p)) {
        fs.makeCgroup(h, p);
      }
    }
    return p;
  }

  /**
   * The content of a file without its trailing newline.
   *
   * @param h the hierarchy
   * @param p the p
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @return the content of a file without its trailing newline
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  protected final String read(Hierarchy h, CgroupPath p, String file) throws IOException {
    return fs.read(h, p, file).strip();
  }

  /**
   * Asserts that {@code call} fails with {@code errno} and returns the failure.
   *
   * @param errno the errno
   * @param call the call
   * @return the CgroupFsException
   */
  protected static CgroupFsException assertErrno(Errno errno, ThrowingCallable call) {
    CgroupFsException e = catchThrowableOfType(CgroupFsException.class, call);
    assertThat(e).as("expected a CgroupFsException with %s", errno).isNotNull();
    assertThat(e.errno()).as("errno of: %s", e.getMessage()).isEqualTo(errno);
    return e;
  }

  /**
   * Asserts that writing {@code value} fails with {@code errno} and leaves the file as it was.
   *
   * @param errno the errno
   * @param h the hierarchy
   * @param p the p
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @param value the value
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  protected final void assertWriteRefused(
      Errno errno, Hierarchy h, CgroupPath p, String file, String value) throws IOException {
    String before = fs.read(h, p, file);
    CgroupFsException e = assertErrno(errno, () -> fs.write(h, p, file, value));
    assertThat(e.file()).endsWith(file);
    assertThat(e.value()).isEqualTo(value);
    assertThat(fs.read(h, p, file)).as("%s after a refused write", file).isEqualTo(before);
  }

  /**
   * Writes {@code value} and returns what the file then reads.
   *
   * @param h the hierarchy
   * @param p the p
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @param value the value
   * @return the text
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  protected final String writeAndRead(Hierarchy h, CgroupPath p, String file, String value)
      throws IOException {
    fs.write(h, p, file, value);
    return read(h, p, file);
  }
}
