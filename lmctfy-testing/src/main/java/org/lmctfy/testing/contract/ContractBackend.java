package org.lmctfy.testing.contract;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The backend a contract suite runs on: how to open it, and how to start and stop a process that
 * cases move between cgroups. {@link #fake} and {@link #host} are the two this project runs; a new
 * {@code CgroupFs} supplies its own.
 *
 * <pre>{@code
 * class MyCgroupFsContractTest extends CgroupFsContract {
 *   MyCgroupFsContractTest() { super(myBackend); }
 * }
 * }</pre>
 */
public interface ContractBackend {

  /**
   * The backend under test, fresh for each case (a shared one is fine for the kernel).
   *
   * @return the backend under test, fresh for each case (a shared one is fine for the kernel)
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  CgroupFs open() throws IOException;

  /**
   * Starts a process (outside the scratch cgroups) that runs until {@link #stopProcess}.
   *
   * @param fs the cgroup filesystem
   * @return the number
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  long startProcess(CgroupFs fs) throws IOException;

  /**
   * Ends a process the case started (it may have died already) and waits until it left its cgroups.
   *
   * @param fs the cgroup filesystem
   * @param pid the process id
   * @throws IOException if the cgroup filesystem refuses (a {@link
   *     org.lmctfy.cgroupfs.CgroupFsException} names the file, the value and the errno)
   */
  void stopProcess(CgroupFs fs, long pid) throws IOException;

  /**
   * Whether a case may move the test's own process (writing "0" to cgroup.procs moves the writer):
   * never on the kernel, where that would move the test JVM; the fake models its "self".
   *
   * @return whether a case may move the test's own process (writing "0" to cgroup.procs moves the
   *     writer): never on the kernel, where that would move the test JVM; the fake models its
   *     "self"
   */
  default boolean mayMoveTheTestProcess() {
    return false;
  }

  /**
   * {@code fs} as an unprivileged user, for {@link CgroupDelegationContract}: the fake's {@link
   * FakeCgroupFs#asUser}; on the kernel, one thread whose credentials are {@code uid}:{@code gid}.
   * Release it with {@link #release}.
   *
   * @param fs the backend under test, as root
   * @param uid the user
   * @param gid the user's group
   * @return the same cgroups, checked as {@code uid}
   * @throws IOException if this backend cannot act as another user
   */
  default CgroupFs asUser(CgroupFs fs, int uid, int gid) throws IOException {
    throw new IOException(this + " cannot act as another user");
  }

  /**
   * Releases what {@link #asUser} made (the kernel's thread).
   *
   * @param view what {@link #asUser} returned
   * @throws Exception if it cannot
   */
  default void release(CgroupFs view) throws Exception {}

  /**
   * A fresh {@link FakeCgroupFs} per case, laid out as {@code layout}, with fake processes.
   *
   * @param layout the layout
   * @return a fresh {@link FakeCgroupFs} per case, laid out as {@code layout}, with fake processes
   */
  static ContractBackend fake(FakeLayout layout) {
    return new ContractBackend() {
      @Override
      public CgroupFs open() {
        return FakeCgroupFs.create(layout);
      }

      @Override
      public long startProcess(CgroupFs fs) {
        return ((FakeCgroupFs) fs).processes().spawn();
      }

      @Override
      public void stopProcess(CgroupFs fs, long pid) {
        FakeCgroupFs fake = (FakeCgroupFs) fs;
        if (fake.processes().living().contains(pid)) { // a kill may have ended it already
          fake.processes().exit(pid);
        }
      }

      @Override
      public boolean mayMoveTheTestProcess() {
        return true;
      }

      @Override
      public CgroupFs asUser(CgroupFs fs, int uid, int gid) {
        return ((FakeCgroupFs) fs).asUser(uid, gid);
      }
    };
  }

  /**
   * This machine's kernel ({@link ScratchCgroups#requireHost}: a case is skipped, with the reason,
   * where the kernel cannot be used), with {@code sleep} processes.
   *
   * @return this machine's kernel, with {@code sleep} processes
   */
  static ContractBackend host() {
    Map<Long, Process> running = new ConcurrentHashMap<>();
    return new ContractBackend() {
      @Override
      public CgroupFs open() throws IOException {
        return ScratchCgroups.requireHost();
      }

      @Override
      public CgroupFs asUser(CgroupFs fs, int uid, int gid) throws IOException {
        return ThreadCredentials.as(fs, uid, gid);
      }

      @Override
      public void release(CgroupFs view) throws Exception {
        ThreadCredentials.close(view);
      }

      @Override
      public long startProcess(CgroupFs fs) throws IOException {
        Process p = new ProcessBuilder("sleep", "3600").redirectErrorStream(true).start();
        running.put(p.pid(), p);
        return p.pid();
      }

      @Override
      public void stopProcess(CgroupFs fs, long pid) throws IOException {
        Process p = running.remove(pid);
        if (p == null) {
          throw new IllegalStateException("not started here: " + pid);
        }
        p.destroyForcibly();
        try {
          if (!p.waitFor(10, TimeUnit.SECONDS)) {
            throw new IOException("process " + pid + " did not die within 10 s");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException(e);
        }
      }
    };
  }
}
