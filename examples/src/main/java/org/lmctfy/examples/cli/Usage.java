package org.lmctfy.examples.cli;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.examples.cli.Command.Opt;
import org.lmctfy.examples.cli.Command.Param;

/**
 * The help of a command: {@code Usage: lmctfy <path> <synopsis>}, its description, then its
 * parameters, options and subcommands with what each is for. The root's help lists the global
 * options; a subcommand's names them in one line.
 */
final class Usage {
  /** The columns a help line fills at most (a longer word stays whole). */
  private static final int WIDTH = 100;

  private Usage() {}

  /** The help of the last command of {@code path} (the root first). */
  static String of(List<Command> path) {
    Command cmd = path.get(path.size() - 1);
    Command root = path.get(0);
    StringBuilder b = new StringBuilder("Usage: ");
    for (Command c : path) {
      b.append(c == root ? "" : " ").append(c.name());
    }
    b.append(synopsis(cmd, cmd == root)).append('\n');
    for (String line : cmd.description()) {
      wrap(b, line, 0);
    }
    List<String[]> rows = new ArrayList<>();
    for (Param p : cmd.params()) {
      rows.add(new String[] {p.synopsis(), p.description()});
    }
    section(b, "Parameters:", rows);
    rows = new ArrayList<>();
    for (Opt o : cmd.options()) {
      rows.add(new String[] {o.synopsis(), o.description()});
    }
    section(b, cmd == root ? "Options (before or after the command):" : "Options:", rows);
    rows = new ArrayList<>();
    for (Command c : cmd.subcommands()) {
      rows.add(new String[] {c.name(), c.summary()});
    }
    section(b, "Commands:", rows);
    if (cmd != root) {
      List<String> names = new ArrayList<>();
      for (Opt o : root.options()) {
        names.add(o.names().get(0));
      }
      wrap(
          b,
          "Global options: " + String.join(" ", names) + " (lmctfy --help says what they do)",
          2);
    }
    return b.toString();
  }

  private static String synopsis(Command cmd, boolean root) {
    StringBuilder b = new StringBuilder();
    if (root) {
      b.append(" [<options>]");
    }
    for (Opt o : cmd.options()) {
      if (!root) {
        b.append(" [")
            .append(o.names().get(0))
            .append(o.label() == null ? "" : " " + o.label())
            .append(']');
      }
    }
    if (!cmd.subcommands().isEmpty()) {
      b.append(" <command>").append(root ? " [<args>...]" : "");
    }
    for (Param p : cmd.params()) {
      b.append(' ').append(p.synopsis());
    }
    return b.toString();
  }

  private static void section(StringBuilder b, String title, List<String[]> rows) {
    if (rows.isEmpty()) {
      return;
    }
    int width = 0;
    for (String[] r : rows) {
      width = Math.max(width, r[0].length());
    }
    b.append(title).append('\n');
    for (String[] r : rows) {
      b.append("  ").append(r[0]).append(" ".repeat(width - r[0].length() + 2));
      wrap(b, r[1], width + 4);
    }
  }

  /**
   * Appends {@code text} in lines of at most {@link #WIDTH} columns, the later ones indented by
   * {@code indent}.
   */
  private static void wrap(StringBuilder b, String text, int indent) {
    int column = indent;
    boolean first = true;
    for (String word : text.split(" ")) {
      if (!first && column + 1 + word.length() > WIDTH) {
        b.append('\n').append(" ".repeat(indent));
        column = indent;
        first = true;
      }
      if (!first) {
        b.append(' ');
        column++;
      }
      b.append(word);
      column += word.length();
      first = false;
    }
    b.append('\n');
  }
}
