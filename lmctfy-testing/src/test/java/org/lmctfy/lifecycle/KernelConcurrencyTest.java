package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.support.TestScale;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Two JVMs, four threads each, create and destroy the same few names for a few seconds: every call
 * either succeeds or answers ALREADY_EXISTS / NOT_FOUND, each name ends as its last successful call
 * left it, and a final destroy leaves nothing.
 */
@Tag("kernel")
@Tag("needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
class KernelConcurrencyTest {
  static final List<String> NAMES = List.of("/a", "/b", "/c");

  private record Call(String op, String name, long start, long end) {}

  @Test
  void twoJvmsHammeringTheSameNamesAgreeOnEveryNamesFinalState() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs)) {
      List<Process> children = new ArrayList<>();
      List<Path> outputs = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        List<String> args =
            new ArrayList<>(
                List.of(
                    "hammer",
                    scratch.path().value(),
                    Long.toString(TestScale.stretched(3000)),
                    "4"));
        args.addAll(NAMES);
        outputs.add(Files.createTempFile("lmctfy-hammer", ".out"));
        children.add(ChildJvm.start(outputs.get(i), args.toArray(String[]::new)));
      }
      List<Call> calls = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        Process child = children.get(i);
        assertThat(child.waitFor(TestScale.stretched(60), TimeUnit.SECONDS)).isTrue();
        List<String> lines = Files.readAllLines(outputs.get(i));
        Files.delete(outputs.get(i));
        assertThat(lines).as("child output").contains("done");
        assertThat(child.exitValue()).as("child output: %s", lines).isZero();
        for (String line : lines) {
          if (line.startsWith("ok ")) {
            String[] f = line.split(" ");
            calls.add(new Call(f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4])));
          }
        }
      }
      assertThat(calls).as("successful calls").hasSizeGreaterThan(20);

      ContainerApi api = ContainerApi.open(fs, scratch.path());
      for (String name : NAMES) {
        List<Call> mine =
            calls.stream()
                .filter(c -> c.name().equals(name))
                .sorted(Comparator.comparingLong(Call::end))
                .toList();
        if (mine.isEmpty()) {
          assertThat(api.exists(name)).isFalse();
          continue;
        }
        Call last = mine.get(mine.size() - 1);
        boolean clearlyLast = mine.size() == 1 || mine.get(mine.size() - 2).end() < last.start();
        if (clearlyLast) {
          assertThat(api.exists(name))
              .as("%s after %s", name, last)
              .isEqualTo(last.op().equals("create"));
        }
        Map<String, Integer> alternation = new HashMap<>();
        mine.forEach(c -> alternation.merge(c.op(), 1, Integer::sum));
        assertThat(
                Math.abs(
                    alternation.getOrDefault("create", 0) - alternation.getOrDefault("destroy", 0)))
            .as("successful creates and destroys of %s alternate", name)
            .isLessThanOrEqualTo(1);
        if (api.exists(name)) {
          api.destroy(name);
        }
      }
      assertThat(api.cleanup().failures()).isEmpty();
      for (var h : fs.hierarchies()) {
        assertThat(fs.children(h, scratch.path())).as(h.label()).isEmpty();
      }
    }
  }
}
