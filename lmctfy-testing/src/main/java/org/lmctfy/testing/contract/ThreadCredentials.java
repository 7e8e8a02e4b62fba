package org.lmctfy.testing.contract;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.lmctfy.cgroupfs.CgroupFs;

/**
 * The kernel backend as an unprivileged user, inside this JVM: every call runs on one thread whose
 * credentials alone were changed with the raw {@code setgroups}, {@code setresgid} and {@code
 * setresuid} system calls (Linux keeps credentials per thread; glibc's wrappers would change every
 * thread of the JVM). The saved uid stays 0, but with a non-zero effective uid the thread has no
 * effective capabilities: the kernel checks it as {@code uid}. The thread ends with the view's
 * {@link #close}; only the contract suites use it.
 */
final class ThreadCredentials {
  static {
    Native.register(Platform.C_LIBRARY_NAME);
  }

  private ThreadCredentials() {}

  private static native long syscall(long number, long a, long b, long c) throws LastErrorException;

  /**
   * A view of {@code fs} whose calls the kernel checks as {@code uid}:{@code gid}; close it with
   * {@link #close}.
   */
  static CgroupFs as(CgroupFs fs, int uid, int gid) throws IOException {
    if (!Platform.isIntel() || !Platform.is64Bit()) {
      throw new IOException("thread credentials are implemented for x86-64 only");
    }
    ExecutorService thread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "lmctfy-test-uid-" + uid);
              t.setDaemon(true);
              return t;
            });
    Future<?> switched =
        thread.submit(
            () -> {
              syscall(116, 0, 0, 0); // setgroups(0, NULL)
              syscall(119, gid, gid, 0); // setresgid
              syscall(
                  117, uid, uid,
                  0); // setresuid: the saved uid stays 0, the effective capabilities go
              return null;
            });
    try {
      switched.get();
    } catch (InterruptedException | ExecutionException e) {
      thread.shutdownNow();
      throw new IOException("could not become uid " + uid + " on a thread", e);
    }
    return (CgroupFs)
        Proxy.newProxyInstance(
            CgroupFs.class.getClassLoader(),
            new Class<?>[] {CgroupFs.class, AutoCloseable.class},
            (proxy, method, args) -> {
              if (method.getName().equals("close") && method.getParameterCount() == 0) {
                thread.shutdownNow();
                return null;
              }
              if (method.getName().equals("toString") && method.getParameterCount() == 0) {
                return fs + " as uid " + uid;
              }
              Future<Object> call = thread.submit(() -> method.invoke(fs, args));
              try {
                return call.get();
              } catch (ExecutionException e) {
                Throwable cause =
                    e.getCause() instanceof InvocationTargetException i
                        ? i.getCause()
                        : e.getCause();
                throw cause;
              }
            });
  }

  /** Ends the thread of a view {@link #as} made. */
  static void close(CgroupFs view) throws Exception {
    if (view instanceof AutoCloseable c) {
      c.close();
    }
  }
}
