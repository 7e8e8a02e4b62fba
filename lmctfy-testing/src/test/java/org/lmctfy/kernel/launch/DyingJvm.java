package org.lmctfy.kernel.launch;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.kernel.launch.Launcher;

/**
 * A JVM that dies while its launcher waits at the gate. {@code <cgroup> <marker> <label>...}:
 * starts {@code touch <marker>} through the launcher into {@code cgroup} of the hierarchies so
 * labelled, and once the last {@code cgroup.procs} write is done prints {@code gate <pid>} and
 * halts, before the gate opens.
 */
public final class DyingJvm {
  private DyingJvm() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    CgroupFs host = ContainerApi.hostCgroupFs();
    List<String> labels = List.of(args).subList(2, args.length);
    Map<Hierarchy, CgroupPath> cgroups = new LinkedHashMap<>();
    for (Hierarchy h : host.hierarchies()) {
      if (labels.contains(h.label())) {
        cgroups.put(h, CgroupPath.of(args[0]));
      }
    }
    int[] writes = {0};
    CgroupFs dying =
        (CgroupFs)
            Proxy.newProxyInstance(
                CgroupFs.class.getClassLoader(),
                new Class<?>[] {CgroupFs.class},
                (proxy, method, a) -> {
                  Object result;
                  try {
                    result = method.invoke(host, a);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                  if (method.getName().equals("write") && ++writes[0] == cgroups.size()) {
                    out.println("gate " + a[3]);
                    Runtime.getRuntime().halt(0);
                  }
                  return result;
                });
    // the gate even where run could spawn into the cgroup (one v2 cgroup, glibc 2.39+)
    System.setProperty("lmctfy.internal.run.gateOnly", "true");
    ProcessBuilder pb = new ProcessBuilder("/usr/bin/touch", args[1]);
    pb.environment().clear();
    Launcher.start(dying, pb, cgroups);
    out.println("UNEXPECTED: the start returned");
    System.exit(3);
  }
}
