package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and the reference in {@code docs/}: their code blocks marked {@code <!-- snippet: path
 * -->} are copies of compiled code (each line of the block, in order, is a line of that file, white
 * space aside), and their relative links lead to files and headings that exist. Javadoc examples
 * marked the same way are held to the same rule.
 */
class ReadmeSnippetsTest {
  private static final Path ROOT =
      Path.of("").toAbsolutePath().getParent(); // examples/ -> the repository
  private static final Pattern SNIPPET =
      Pattern.compile("<!-- snippet: (\\S+) -->\\n```java\\n(.*?)\\n```", Pattern.DOTALL);
  private static final Pattern JAVADOC_SNIPPET =
      Pattern.compile(
          "<!-- snippet: (\\S+) -->(?:\\n *\\*)*\\n *\\* <pre>\\{@code\\n(.*?)\\n *\\* }</pre>",
          Pattern.DOTALL);
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern CODE_BLOCK =
      Pattern.compile("^```.*?^```", Pattern.DOTALL | Pattern.MULTILINE);

  @Test
  void everyMarkedSnippetIsInItsFileInOrder() throws IOException {
    int found = 0;
    for (Path doc : docs()) {
      Matcher m = SNIPPET.matcher(Files.readString(doc));
      while (m.find()) {
        found++;
        assertInFileInOrder(doc, m.group(1), List.of(m.group(2).split("\n")));
      }
    }
    assertThat(found).as("snippets marked in README.md and docs/").isPositive();
  }

  /**
   * The Javadoc examples of the published sources marked {@code <!-- snippet: path -->} before
   * their {@code <pre>{@code ...}</pre>} are copies of compiled code, as the documents' are.
   */
  @Test
  void everyMarkedJavadocExampleIsInItsFileInOrder() throws IOException {
    int found = 0;
    List<Path> sources;
    try (Stream<Path> all = Files.walk(ROOT)) {
      sources =
          all.filter(
                  p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
              .filter(p -> !p.toString().contains("/target/"))
              .sorted()
              .toList();
    }
    for (Path source : sources) {
      Matcher m = JAVADOC_SNIPPET.matcher(Files.readString(source));
      while (m.find()) {
        found++;
        List<String> lines = new ArrayList<>();
        for (String line : m.group(2).split("\n")) {
          lines.add(line.replaceFirst("^\\s*\\* ?", ""));
        }
        assertInFileInOrder(source, m.group(1), lines);
      }
    }
    assertThat(found).as("Javadoc examples marked in the sources").isPositive();
  }

  /** Each line of {@code block}, in order, is a line of {@code target}, white space aside. */
  private static void assertInFileInOrder(Path doc, String target, List<String> block)
      throws IOException {
    // white space aside (the formatter wraps a long line where the document keeps it whole)
    String file = Files.readString(ROOT.resolve(target)).replaceAll("\\s+", "");
    int at = 0;
    for (String line : stripped(block)) {
      String code = line.replaceAll("\\s+", "");
      int next = file.indexOf(code, at);
      assertThat(next)
          .as(
              "%s: snippet line \"%s\" in %s (after character %d of its code, white space aside)",
              ROOT.relativize(doc), line, target, at)
          .isNotNegative();
      at = next + code.length();
    }
  }

  @Test
  void everyRelativeLinkLeadsToAFileOrHeadingThatExists() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path doc : docs()) {
      Matcher m = LINK.matcher(CODE_BLOCK.matcher(Files.readString(doc)).replaceAll(""));
      while (m.find()) {
        String link = m.group(1);
        if (link.matches("[a-z]+:.*")) {
          continue; // https:, mailto:
        }
        int hash = link.indexOf('#');
        Path target =
            hash == 0
                ? doc
                : doc.resolveSibling(hash < 0 ? link : link.substring(0, hash)).normalize();
        if (!Files.exists(target)) {
          broken.add(ROOT.relativize(doc) + ": " + link + " (no such file)");
        } else if (hash >= 0 && !anchors(target).contains(link.substring(hash + 1))) {
          broken.add(ROOT.relativize(doc) + ": " + link + " (no such heading)");
        }
      }
    }
    assertThat(broken).as("links in README.md and docs/").isEmpty();
  }

  @Test
  void theReadmeLinksEveryPageOfDocs() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    assertThat(docs().subList(1, docs().size()))
        .allSatisfy(
            doc ->
                assertThat(readme)
                    .as("README.md links %s", ROOT.relativize(doc))
                    .contains("](" + ROOT.relativize(doc) + ")"));
  }

  /** README.md, then every page of docs/. */
  private static List<Path> docs() throws IOException {
    List<Path> out = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
      pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
    }
    return out;
  }

  /**
   * GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as
   * hyphens.
   */
  private static Set<String> anchors(Path file) throws IOException {
    Set<String> out = new HashSet<>();
    if (!file.toString().endsWith(".md")) {
      return out;
    }
    for (String line : CODE_BLOCK.matcher(Files.readString(file)).replaceAll("").split("\n")) {
      if (line.matches("#{1,6} .*")) {
        out.add(
            line.replaceFirst("#+ ", "")
                .strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-'));
      }
    }
    return out;
  }

  private static List<String> stripped(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      if (!line.isBlank()) {
        out.add(line.strip());
      }
    }
    return out;
  }
}
