package org.lmctfy.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmctfy.Container;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * RunSpec's size_jvm with the real JDKs of this machine (or guest) in a container nested in one
 * with half a CPU and 256 MiB: with the option every JDK counts one CPU and sizes its heap from 256
 * MiB ({@code -XshowSettings:all}); without it, a JDK before 24 reads only its own cgroup (printed
 * for the docs, asserted where this machine has more than one CPU).
 */
@Tag("kernel")
@Tag("needs-controllers")
class KernelJvmSizingTest extends ApiOnScratch {
  private static final long LIMIT = 256L << 20;

  KernelJvmSizingTest() {
    super(ContractBackend.host());
  }

  /** The JDKs below /usr/lib/jvm (one per real directory) and the one running this test. */
  private static List<Path> jdks() throws IOException {
    Map<Path, Path> byReal = new LinkedHashMap<>();
    Path self = Path.of(System.getProperty("java.home"));
    byReal.put(self.toRealPath(), self);
    Path jvm = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(jvm)) {
      try (Stream<Path> dirs = Files.list(jvm)) {
        for (Path d : dirs.sorted().toList()) {
          if (Files.isExecutable(d.resolve("bin/java")) && Files.exists(d.resolve("release"))) {
            byReal.putIfAbsent(d.toRealPath(), d);
          }
        }
      }
    }
    return new ArrayList<>(byReal.values());
  }

  private static String version(Path jdk) throws IOException {
    return Files.readAllLines(jdk.resolve("release")).stream()
        .filter(l -> l.startsWith("JAVA_VERSION="))
        .findFirst()
        .orElse("JAVA_VERSION=?")
        .substring("JAVA_VERSION=".length())
        .replace("\"", "");
  }

  /** What {@code java -XshowSettings:all -version} printed of its limits in {@code c}. */
  private static List<String> settings(Container c, Path jdk, boolean sized, Path dir)
      throws Exception {
    Path out = Files.createTempFile(dir, "settings", ".txt");
    RunSpec spec =
        RunSpec.builder()
            .stdout(out.toString())
            .stderr(out.toString())
            .sizeJvm(sized ? Boolean.TRUE : null)
            .build();
    int code =
        c.run(List.of(jdk.resolve("bin/java").toString(), "-XshowSettings:all", "-version"), spec)
            .waitFor();
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertThat(code).as(String.join("\n", lines)).isZero();
    return lines.stream()
        .map(String::strip)
        .filter(
            l ->
                l.startsWith("Effective CPU Count")
                    || l.startsWith("CPU Quota")
                    || l.startsWith("Memory Limit")
                    || l.startsWith("Max. Heap Size"))
        .toList();
  }

  private static long heapBytes(List<String> lines) {
    String v =
        lines.stream()
            .filter(l -> l.startsWith("Max. Heap Size"))
            .findFirst()
            .orElseThrow()
            .replaceAll(".*: *", "");
    double n = Double.parseDouble(v.replaceAll("[^0-9.]", ""));
    long unit =
        v.endsWith("G") ? 1L << 30 : v.endsWith("M") ? 1L << 20 : v.endsWith("K") ? 1024 : 1;
    return (long) (n * unit);
  }

  @Test
  void everyJdkInANestedContainerCountsItsAncestorsCpuAndMemoryWithSizeJvm(@TempDir Path dir)
      throws Exception {
    dir.toFile().setReadable(true, false); // the program may run as another user
    dir.toFile().setWritable(true, false);
    api.create("/p", ContainerSpec.parse("cpu { max_limit: 500 } memory { limit: " + LIMIT + " }"));
    Container child = api.create("/p/c", ContainerSpec.empty());
    for (Path jdk : jdks()) {
      List<String> plain = settings(child, jdk, false, dir);
      List<String> sized = settings(child, jdk, true, dir);
      System.out.println(
          "JDK "
              + version(jdk)
              + " ("
              + jdk
              + ") in /p/c, /p with cpu max_limit 500 and memory limit 256M\n  without size_jvm: "
              + plain
              + "\n  with size_jvm:    "
              + sized);
      assertThat(sized).as(jdk + " with size_jvm").contains("Effective CPU Count: 1");
      // MaxRAM=256M: the JDK's default heap for so small a machine is half of it (a JDK 17 on v2
      // without the flag takes a quarter of the whole machine's memory)
      assertThat(heapBytes(sized)).as(jdk + " heap with size_jvm").isLessThanOrEqualTo(LIMIT / 2);
      if (Runtime.getRuntime().availableProcessors() > 1 && version(jdk).startsWith("17")) {
        assertThat(plain)
            .as("JDK 17 without size_jvm reads only /p/c's quota (the reason for the option)")
            .doesNotContain("Effective CPU Count: 1");
      }
    }
  }
}
