package org.lmctfy.trust;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;

/**
 * The tenant's JVM for a rootless virtual host: {@code <delegated> <rootfs>} waits for a line on
 * stdin (root moved it into its subtree), opens the API on its delegated cgroup, creates {@code
 * /vh} with a root, a host name and a loopback network, runs inside, and prints what it saw, one
 * {@code key value} line each; then destroys it and prints {@code done}. A failure prints {@code
 * UNEXPECTED} and exits 3.
 */
public final class VirtualHostTenantJvm {
  private VirtualHostTenantJvm() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    out.println("started");
    new java.io.BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8))
        .readLine();
    try (ContainerApi api =
        ContainerApi.open(ContainerApi.hostCgroupFs(), CgroupPath.of(args[0]))) {
      Container vh =
          api.create(
              "/vh",
              ContainerSpec.parse(
                  "virtual_host { virtual_hostname: 'rootless' network {} }"
                      + " filesystem { rootfs: '"
                      + args[1]
                      + "' }"));
      long init = vh.initPid();
      out.println("init " + init);
      ContainerProcess p =
          vh.run(
              List.of(
                  "/bin/sh",
                  "-c",
                  "id -u; hostname; echo pid=$$;"
                      + " mount -t tmpfs lmctfy-test-rootless /srv && echo mounted; cat /proc/net/dev | grep -c ':'"),
              RunSpec.inherit());
      String seen = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
      out.println(("exit " + p.waitFor() + " " + err.strip().replace('\n', ' ')).strip());
      seen.lines().forEach(l -> out.println("inside " + l));
      ContainerProcess sleeper = vh.run(List.of("/bin/sleep", "600"), RunSpec.detached());
      for (String line : Files.readAllLines(Path.of("/proc/" + sleeper.pid() + "/status"))) {
        if (line.startsWith("Uid:") || line.startsWith("NSpid:")) {
          out.println("outside " + line.replaceAll("\\s+", " "));
        }
      }
      for (String ns : List.of("user", "pid", "mnt", "uts", "net")) {
        Object mine = Files.getAttribute(Path.of("/proc/self/ns/" + ns), "unix:ino");
        Object theirs =
            Files.getAttribute(Path.of("/proc/" + sleeper.pid() + "/ns/" + ns), "unix:ino");
        Object inits = Files.getAttribute(Path.of("/proc/" + init + "/ns/" + ns), "unix:ino");
        out.println(
            "ns " + ns + " own=" + !mine.equals(theirs) + " init's=" + theirs.equals(inits));
      }
      out.println("detect " + api.detect(sleeper.pid()));
      vh.destroy();
      long end =
          System.nanoTime()
              + 30_000_000_000L; // its reaper (bwrap's parent, once bwrap is gone) reaps it
      while (Files.exists(Path.of("/proc/" + init)) && System.nanoTime() < end) {
        Thread.sleep(10);
      }
      out.println(
          "destroyed "
              + api.exists("/vh")
              + " init-gone "
              + !Files.exists(Path.of("/proc/" + init)));
      out.println("done");
    } catch (LmctfyException e) {
      out.println("UNEXPECTED " + e.code() + ": " + e.getMessage());
      System.exit(3);
    }
  }
}
