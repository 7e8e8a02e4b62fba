package org.lmctfy.examples.cli;

import java.util.List;

/**
 * One command of the tool, as data: a leaf that runs an {@link Action}, or a menu of subcommands
 * ({@code list}, {@code stats}); its options, its parameters and its help. The tree is plain values
 * built by code, so a command line costs no reflection and no class beyond the tool's: {@link
 * Invocation#parse} reads a command line against it, {@link Usage} prints its help and {@link
 * Completion} its bash completion.
 *
 * @param name the word that names it ({@code lmctfy} for the root)
 * @param description its help: the first line is the summary the parent's command list shows
 * @param options its own options (the root's are the global ones, allowed at every level)
 * @param params its positional parameters, in order: required ones first, at most the last one
 *     repeated
 * @param action what it does, or null for a menu
 * @param subcommands a menu's commands, in the order help lists them; empty for a leaf
 * @param programFollows whether every word after the first parameter belongs to that parameter list
 *     unread ({@code run /c ls -l}: the program keeps its {@code -l})
 */
record Command(
    String name,
    List<String> description,
    List<Opt> options,
    List<Param> params,
    Action action,
    List<Command> subcommands,
    boolean programFollows) {

  /** What a leaf command does with its parsed command line; returns the exit code. */
  @FunctionalInterface
  interface Action {
    int run(Invocation in) throws Exception;
  }

  /**
   * An option: a flag when {@code label} is null, else it takes one value ({@code -c <file>},
   * {@code --root=<cgroup>}). Its first name is the one {@link Invocation} knows it by.
   */
  record Opt(List<String> names, String label, String description) {
    static Opt flag(String description, String... names) {
      return new Opt(List.of(names), null, description);
    }

    static Opt value(String label, String description, String... names) {
      return new Opt(List.of(names), label, description);
    }

    /** {@code -f, --force} or {@code -c <file>}, as help and usage show it. */
    String synopsis() {
      return String.join(", ", names) + (label == null ? "" : " " + label);
    }
  }

  /** A positional parameter: required ({@code min} 1) or not, once or repeated ({@code many}). */
  record Param(String label, int min, boolean many, String description) {
    static Param one(String label, String description) {
      return new Param(label, 1, false, description);
    }

    static Param optional(String label, String description) {
      return new Param(label, 0, false, description);
    }

    static Param repeated(String label, int min, String description) {
      return new Param(label, min, true, description);
    }

    /** {@code <name>}, {@code [<spec>]}, {@code <command>...} or {@code [<tid>...]}. */
    String synopsis() {
      String s = label + (many ? "..." : "");
      return min == 0 ? "[" + s + "]" : s;
    }
  }

  Command {
    description = List.copyOf(description);
    options = List.copyOf(options);
    params = List.copyOf(params);
    subcommands = List.copyOf(subcommands);
  }

  /** A command that runs {@code action}. */
  static Command leaf(
      String name, List<String> description, Action action, List<Opt> options, Param... params) {
    return new Command(name, description, options, List.of(params), action, List.of(), false);
  }

  /** A menu whose words are {@code subcommands}. */
  static Command menu(String name, List<String> description, Command... subcommands) {
    return new Command(name, description, List.of(), List.of(), null, List.of(subcommands), false);
  }

  /** This leaf, with every word after its first parameter left to the program. */
  Command withProgram() {
    return new Command(name, description, options, params, action, subcommands, true);
  }

  /** The subcommand named {@code word}, or null. */
  Command subcommand(String word) {
    for (Command c : subcommands) {
      if (c.name.equals(word)) {
        return c;
      }
    }
    return null;
  }

  /** The option named {@code name} among this command's own, or null. */
  Opt option(String name) {
    for (Opt o : options) {
      if (o.names.contains(name)) {
        return o;
      }
    }
    return null;
  }

  /** The first line of the description. */
  String summary() {
    return description.isEmpty() ? "" : description.get(0);
  }
}
