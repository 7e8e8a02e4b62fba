package org.lmctfy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.AnnotationSupport;
import org.lmctfy.support.Proves;

/**
 * The "What's supported" table (docs/supported.md) says, for each field and API, what the tests
 * prove on a v2 kernel (the {@code v2} guests of .ci/kernel-vm, 6.1 and 6.12) and on the fake; this
 * holds it to the tests' {@link Proves} annotations, so the table cannot claim what no test checks
 * (or leave out what one does). A cell is {@code Y} where a test proves the thing itself, then
 * {@code refused: CODE} for each refusal proven, joined with "; ". A test class tagged {@code
 * kernel} and not {@code needs-v1} proves on the v2 kernel; one not tagged {@code kernel}, on the
 * fake.
 */
class SupportedTableTest {
  private static final String HEADER =
      "| # | field or API | cgroup v1 | cgroup v2 | v2 kernel | fake |";

  /**
   * One row: its key (the field or API, up to a parenthesis, without backquotes) and its two proof
   * cells.
   */
  record Row(int number, String key, String kernel, String fake) {}

  @Test
  void everyRowOfTheTableIsWhatTheTestsProveAndEveryProvenRowIsInIt() throws Exception {
    List<Row> rows = tableRows();
    Map<String, TreeMap<String, List<String>>> proofs = proofs();
    List<String> problems = new ArrayList<>();
    for (Row r : rows) {
      TreeMap<String, List<String>> p = proofs.getOrDefault(r.key(), new TreeMap<>());
      String kernel = cell(p, "kernel");
      String fake = cell(p, "fake");
      if (kernel.isEmpty() || fake.isEmpty()) {
        problems.add(
            r.key()
                + ": no test proves it "
                + (kernel.isEmpty() ? "on a v2 kernel" : "on the fake"));
      }
      if (!r.kernel().equals(kernel)) {
        problems.add(
            r.key()
                + ": the table says v2 kernel \""
                + r.kernel()
                + "\", the tests prove \""
                + kernel
                + "\" "
                + p.getOrDefault("kernel", List.of()));
      }
      if (!r.fake().equals(fake)) {
        problems.add(
            r.key()
                + ": the table says fake \""
                + r.fake()
                + "\", the tests prove \""
                + fake
                + "\" "
                + p.getOrDefault("fake", List.of()));
      }
    }
    TreeSet<String> unlisted = new TreeSet<>(proofs.keySet());
    rows.forEach(r -> unlisted.remove(r.key()));
    unlisted.forEach(
        k -> problems.add(k + ": proven by " + proofs.get(k) + " but not a row of the table"));
    assertThat(problems).as("docs/supported.md against the tests' @Proves").isEmpty();
    assertThat(rows)
        .extracting(Row::number)
        .as("rows numbered 1..n")
        .containsExactlyElementsOf(
            java.util.stream.IntStream.rangeClosed(1, rows.size()).boxed().toList());
  }

  /**
   * "Y", then "refused: CODE" per refusal code, from the proofs of one side ("kernel" or "fake").
   */
  private static String cell(TreeMap<String, List<String>> p, String side) {
    List<String> parts = new ArrayList<>();
    TreeSet<String> codes = new TreeSet<>();
    boolean itself = false;
    for (String proof : p.getOrDefault(side, List.of())) {
      String code = proof.substring(0, proof.indexOf(' '));
      if (code.equals("-")) {
        itself = true;
      } else {
        codes.add(code);
      }
    }
    if (itself) {
      parts.add("Y");
    }
    codes.forEach(c -> parts.add("refused: " + c));
    return String.join("; ", parts);
  }

  /** key -> side -> ["CODE Class#method" or "- Class#method"]. */
  private static Map<String, TreeMap<String, List<String>>> proofs()
      throws IOException, URISyntaxException {
    Path classes =
        Path.of(
            SupportedTableTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Map<String, TreeMap<String, List<String>>> out = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> all = Files.walk(classes)) {
      files =
          all.filter(
                  f -> f.toString().endsWith(".class") && !f.getFileName().toString().contains("$"))
              .toList();
    }
    for (Path f : files) {
      String name = classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
      Class<?> c;
      try {
        c = Class.forName(name, false, SupportedTableTest.class.getClassLoader());
      } catch (ClassNotFoundException | LinkageError e) {
        continue;
      }
      if (Modifier.isAbstract(c.getModifiers()) || c.isInterface()) {
        continue;
      }
      List<String> tags =
          AnnotationSupport.findRepeatableAnnotations(c, Tag.class).stream()
              .map(Tag::value)
              .toList();
      String side = !tags.contains("kernel") ? "fake" : tags.contains("needs-v1") ? null : "kernel";
      if (side == null) {
        continue;
      }
      for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
        for (Method m : k.getDeclaredMethods()) {
          if (!AnnotationSupport.isAnnotated(m, Test.class)) {
            continue;
          }
          for (Proves p : AnnotationSupport.findRepeatableAnnotations(m, Proves.class)) {
            out.computeIfAbsent(p.value(), x -> new TreeMap<>())
                .computeIfAbsent(side, x -> new ArrayList<>())
                .add(
                    (p.refusal().isEmpty() ? "-" : p.refusal())
                        + " "
                        + c.getSimpleName()
                        + "#"
                        + m.getName());
          }
        }
      }
    }
    return out;
  }

  /** The rows of the table of docs/supported.md whose header is {@link #HEADER}. */
  static List<Row> tableRows() throws IOException {
    List<String> lines = Files.readAllLines(table());
    int header = lines.indexOf(HEADER);
    assertThat(header)
        .as("docs/supported.md has a table whose header is " + HEADER)
        .isNotNegative();
    List<Row> rows = new ArrayList<>();
    Map<String, Integer> seen = new LinkedHashMap<>();
    for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      String[] cells =
          lines.get(i).substring(1, lines.get(i).length() - 1).split("(?<!\\\\)\\|", -1);
      assertThat(cells).as("line %d: %s", i + 1, lines.get(i)).hasSize(6);
      String field = cells[1].strip();
      int paren = field.indexOf(" (");
      String key = (paren < 0 ? field : field.substring(0, paren)).replace("`", "").strip();
      assertThat(seen.put(key, i + 1)).as("row %s given twice", key).isNull();
      rows.add(
          new Row(Integer.parseInt(cells[0].strip()), key, cells[4].strip(), cells[5].strip()));
    }
    return rows;
  }

  private static Path table() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("docs/supported.md"))
          && Files.isDirectory(dir.resolve("lmctfy-core"))) {
        return dir.resolve("docs/supported.md");
      }
    }
    throw new AssertionError("no docs/supported.md above " + Path.of("").toAbsolutePath());
  }
}
