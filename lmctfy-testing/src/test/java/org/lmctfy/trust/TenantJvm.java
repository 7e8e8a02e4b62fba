package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.support.ChildJvms;

/**
 * The tenant's JVM, run as uid 64999: {@code <delegated> <outside>} opens the API on its delegated
 * cgroup (once a line on stdin says root moved it inside) and runs a container's whole lifecycle
 * below it, one line per step ({@code ok <step>}; an enter of a process left outside is refused),
 * then tries {@code outside} (a cgroup it was not given) and prints {@code refused <code>
 * <message>} for each call there. Any other failure prints {@code UNEXPECTED} and exits 3.
 */
public final class TenantJvm {
  private TenantJvm() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Process outsider =
        new ProcessBuilder("sleep", "120").start(); // stays where the JVM began: outside
    String before = Files.readString(Path.of("/proc/" + outsider.pid() + "/cgroup"));
    out.println("started");
    new java.io.BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8))
        .readLine(); // root moved us
    try (ContainerApi api =
        ContainerApi.open(ContainerApi.hostCgroupFs(), CgroupPath.of(args[0]))) {
      Container a = api.create("/a", ContainerSpec.parse("memory { limit: 104857600 }"));
      out.println("ok create");
      a.update(ContainerSpec.parse("memory { limit: 209715200 }"), UpdatePolicy.DIFF);
      out.println("ok update " + a.spec().memory().limit());
      int code = a.run(List.of("/bin/sh", "-c", "exit 7"), RunSpec.detached()).waitFor();
      out.println("ok run " + code);
      a.stats(StatsType.SUMMARY);
      out.println("ok stats");
      try {
        a.enter(List.of(outsider.pid()));
        out.println("UNEXPECTED enter of a process outside the subtree succeeded");
        System.exit(3);
      } catch (LmctfyException e) {
        boolean unmoved =
            Files.readString(Path.of("/proc/" + outsider.pid() + "/cgroup")).equals(before);
        out.println("refused enter " + e.code() + " unmoved=" + unmoved + " " + e.getMessage());
      } finally {
        outsider.destroyForcibly().waitFor();
      }
      api.create("/a/b", ContainerSpec.empty());
      out.println("ok create-below " + a.listSubcontainers(org.lmctfy.ListPolicy.SELF));
      a.pause();
      a.resume();
      out.println("ok pause-resume");
      a.destroy();
      out.println("ok destroy " + api.exists("/a"));
    } catch (LmctfyException e) {
      out.println("UNEXPECTED " + e.code() + ": " + e.getMessage());
      System.exit(3);
    }
    try (ContainerApi outside =
        ContainerApi.open(ContainerApi.hostCgroupFs(), CgroupPath.of(args[1]))) {
      refused(out, "create", () -> outside.create("/evil", ContainerSpec.empty()));
      refused(
          out,
          "destroy",
          () -> {
            outside.destroy("/t");
            return null;
          });
      refused(
          out,
          "update",
          () -> {
            outside
                .get("/t")
                .update(ContainerSpec.parse("memory { limit: 4096000 }"), UpdatePolicy.DIFF);
            return null;
          });
    }
    out.println("done");
  }

  private static void refused(PrintStream out, String what, Supplier<?> call) {
    try {
      Object unexpected = call.get();
      out.println("UNEXPECTED " + what + " outside succeeded: " + unexpected);
      System.exit(3);
    } catch (LmctfyException e) {
      out.println("refused " + what + " " + e.code() + " " + e.getMessage().replace('\n', ' '));
    }
  }

  /**
   * The tenant's JVM, started as the tenant in {@code home}, its HOME and XDG_RUNTIME_DIR (owned by
   * it), with nothing else of the caller's environment and its whole class path (jars and the
   * build's class directories) copied into {@code home}, readable by all: the build may live where
   * the tenant cannot read (a clone in a directory of mode 700).
   */
  static Process start(Path home, Path output, String... args) throws IOException {
    return start(TenantJvm.class, home, output, args);
  }

  /** {@link #start(Path, Path, String...)} of another main class. */
  static Process start(Class<?> main, Path home, Path output, String... args) throws IOException {
    Path lib = Files.createDirectories(home.resolve("lib"));
    List<String> classPath = new ArrayList<>();
    int i = 0;
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path p = Path.of(entry);
      if (Files.exists(p)) {
        Path copy = lib.resolve((i++) + "-" + p.getFileName());
        copyReadable(p, copy);
        classPath.add(copy.toString());
      }
    }
    List<String> argv =
        ChildJvms.java(
            String.join(java.io.File.pathSeparator, classPath), "-XX:+UseSerialGC", main, args);
    ProcessBuilder pb =
        new ProcessBuilder(Tenant.command(argv))
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", "/usr/bin:/bin");
    env.put("HOME", home.toString());
    env.put("XDG_RUNTIME_DIR", home.toString());
    return pb.start();
  }

  /**
   * Waits for the tenant's {@code started} line, moves it into {@code session} (a container of its
   * subtree: v2 lets the subtree's root hold no process), lets it go on and waits for it to exit 0
   * (three minutes at most); its output's lines.
   */
  static List<String> enterAndRun(Process tenant, Path output, Container session) throws Exception {
    while (!Files.readAllLines(output).contains("started")) {
      assertThat(tenant.isAlive()).as("tenant output: %s", Files.readAllLines(output)).isTrue();
      Thread.sleep(10);
    }
    session.enter(List.of(tenant.pid()));
    tenant.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
    tenant.getOutputStream().flush();
    assertThat(tenant.waitFor(180, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    List<String> lines = Files.readAllLines(output);
    assertThat(tenant.exitValue()).as("tenant output: %s", lines).isZero();
    return lines;
  }

  /** Copies a file or a directory tree, every copy readable by all whatever the umask. */
  private static void copyReadable(Path from, Path to) throws IOException {
    try (java.util.stream.Stream<Path> all = Files.walk(from)) {
      for (Path source : all.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
          Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        } else {
          Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
          Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
        }
      }
    }
  }
}
