package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's code blocks marked {@code <!-- snippet: path -->} are copies of compiled code: each
 * line of the block, in order, is a line of that file (indentation aside).
 */
class ReadmeSnippetsTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent(); // examples/ -> the repository
  private static final Pattern SNIPPET = Pattern.compile("<!-- snippet: (\\S+) -->\\n```java\\n(.*?)\\n```",
      Pattern.DOTALL);

  @Test
  void everyMarkedSnippetIsInItsFileInOrder() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    Matcher m = SNIPPET.matcher(readme);
    int found = 0;
    while (m.find()) {
      found++;
      List<String> file = stripped(Files.readAllLines(ROOT.resolve(m.group(1))));
      List<String> block = stripped(List.of(m.group(2).split("\n")));
      int at = 0;
      for (String line : block) {
        int next = file.subList(at, file.size()).indexOf(line);
        assertThat(next).as("README snippet line \"%s\" in %s (after line %d of its code)", line, m.group(1), at)
            .isNotNegative();
        at += next + 1;
      }
    }
    assertThat(found).as("snippets marked in README.md").isPositive();
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
