package org.lmctfy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/internals.md, the contributors' map, against the tree: every path it names in backquotes
 * exists, every package it names has its folder, every class it names is declared in a source file
 * of the tree (a nested one in its outer class's file) and every member it names ({@code
 * Containers.run}) is in the file of its class, and every link leads to a file. A map that names
 * what was moved, renamed or removed fails here.
 */
class InternalsMapTest {
  private static final Pattern QUOTED = Pattern.compile("`([^`]+)`");
  private static final Pattern PACKAGE = Pattern.compile("org\\.lmctfy(\\.[a-z][a-z0-9]*)*");

  /** {@code Type}, {@code Type.Nested}, {@code Type.member}, {@code Type.method(args)}. */
  private static final Pattern NAME =
      Pattern.compile("[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*(\\.[A-Za-z_][A-Za-z0-9_]*)*(\\(.*\\))?");

  private static final Pattern DECLARATION =
      Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z][A-Za-z0-9]*)");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s]+)(#[^)]*)?\\)");

  @Test
  void everyPathPackageClassMemberAndLinkItNamesIsInTheTree() throws IOException {
    Path root = root();
    String map = Files.readString(root.resolve("docs/internals.md"));
    Map<String, List<Path>> types = declaredTypes(root);
    List<String> problems = new ArrayList<>();
    int checked = 0;
    Matcher m = QUOTED.matcher(map);
    while (m.find()) {
      String token = m.group(1);
      String problem;
      if (token.contains("/") && !token.contains(" ")) {
        problem = Files.exists(root.resolve(token)) ? null : "no file or folder " + token;
      } else if (PACKAGE.matcher(token).matches()) {
        problem = packageFolderExists(root, token) ? null : "no package folder for " + token;
      } else if (NAME.matcher(token).matches()) {
        problem = checkName(token, types);
      } else {
        continue; // a file name of the kernel, a field, a word
      }
      checked++;
      if (problem != null) {
        problems.add(problem);
      }
    }
    Matcher links = LINK.matcher(map);
    while (links.find()) {
      String target = links.group(1);
      if (!target.contains("://")) {
        checked++;
        if (!Files.exists(root.resolve("docs").resolve(target).normalize())) {
          problems.add("a link to " + target + ", which is not there");
        }
      }
    }
    assertThat(checked).as("names and links checked in docs/internals.md").isGreaterThan(150);
    assertThat(problems).as("docs/internals.md against the tree").isEmpty();
  }

  /**
   * Why {@code token} names nothing in the tree, or null: its first part a declared type, each
   * further capitalised part a type declared in the file of the one before, any other part a word
   * of that file (a method, field or constant).
   */
  private static String checkName(String token, Map<String, List<Path>> types) throws IOException {
    int paren = token.indexOf('(');
    String[] parts = (paren < 0 ? token : token.substring(0, paren)).split("\\.");
    List<Path> files = types.get(parts[0]);
    if (files == null) {
      return "no class " + parts[0] + " (in " + token + ")";
    }
    for (int i = 1; i < parts.length; i++) {
      String part = parts[i];
      Pattern word = Pattern.compile("\\b" + Pattern.quote(part) + "\\b");
      List<Path> declaring = types.getOrDefault(part, List.of());
      boolean type = Character.isUpperCase(part.charAt(0)) && !part.equals(part.toUpperCase());
      List<Path> found = new ArrayList<>();
      for (Path f : files) {
        if (type ? declaring.contains(f) : word.matcher(Files.readString(f)).find()) {
          found.add(f);
        }
      }
      if (found.isEmpty()) {
        return "no " + part + " in " + parts[i - 1] + " (in " + token + ")";
      }
      files = found;
    }
    return null;
  }

  /** Each type declared in a Java file of the tree (sources and tests), with its files. */
  private static Map<String, List<Path>> declaredTypes(Path root) throws IOException {
    Map<String, List<Path>> out = new HashMap<>();
    for (Path f : javaFiles(root)) {
      Matcher m = DECLARATION.matcher(Files.readString(f));
      while (m.find()) {
        out.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(f);
      }
    }
    return out;
  }

  private static List<Path> javaFiles(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> p.toString().contains("/src/"))
          .filter(p -> !p.toString().contains("/target/"))
          .toList();
    }
  }

  /** Whether some module's main or test sources have the folder of package {@code name}. */
  private static boolean packageFolderExists(Path root, String name) throws IOException {
    String folder = name.replace('.', '/');
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.toList()) {
        for (String sources : List.of("src/main/java/", "src/test/java/")) {
          if (Files.isDirectory(module.resolve(sources + folder))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("docs/internals.md"))
          && Files.isDirectory(dir.resolve("lmctfy-core"))) {
        return dir;
      }
    }
    throw new AssertionError("no docs/internals.md above " + Path.of("").toAbsolutePath());
  }
}
