package org.lmctfy.examples.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.lmctfy.examples.cli.Command.Opt;

/**
 * The bash completion script of the {@link Command} tree: command words at each level, each
 * command's options and the global ones, the values of {@code --backend} and {@code --fake-layout},
 * file names after {@code -c}. The build writes it once into the distribution ({@link #main});
 * {@code lmctfy completion} prints the same.
 */
public final class Completion {
  private Completion() {}

  /** The script for {@code root}. */
  static String script(Command root) {
    Map<String, String> words = new TreeMap<>();
    Map<String, String> options = new TreeMap<>();
    List<String> withValue = new ArrayList<>();
    collect(root, "", words, options, withValue, root);
    StringBuilder b = new StringBuilder();
    b.append("# bash completion for lmctfy (made by `lmctfy completion`)\n");
    b.append("_lmctfy() {\n");
    b.append(
        "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path= next i w\n");
    b.append("  case \"$prev\" in\n");
    b.append("    --backend) COMPREPLY=($(compgen -W \"host fake\" -- \"$cur\")); return;;\n");
    b.append("    --fake-layout) COMPREPLY=($(compgen -W \"")
        .append(Lmctfy.layouts().replace(",", ""))
        .append("\" -- \"$cur\")); return;;\n");
    b.append("    -c) COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n");
    b.append("    --root) return;;\n");
    b.append("  esac\n");
    b.append("  for ((i = 1; i < COMP_CWORD; i++)); do\n");
    b.append("    w=${COMP_WORDS[i]}\n");
    b.append("    case \"$w\" in\n");
    b.append("      ").append(String.join("|", withValue)).append(") ((i++));;\n");
    b.append("      -*) ;;\n");
    b.append("      *) next=${path:+${path}_}$w\n");
    b.append("         case \" ")
        .append(String.join(" ", words.keySet()).strip())
        .append(" \" in\n");
    b.append("           *\" $next \"*) path=$next;;\n");
    b.append("           *) break;;\n");
    b.append("         esac;;\n");
    b.append("    esac\n");
    b.append("  done\n");
    b.append("  local words opts\n");
    b.append("  case \"$path\" in\n");
    for (Map.Entry<String, String> e : words.entrySet()) {
      b.append("    \"")
          .append(e.getKey())
          .append("\") words=\"")
          .append(e.getValue())
          .append("\" opts=\"")
          .append(options.get(e.getKey()))
          .append("\";;\n");
    }
    b.append("  esac\n");
    b.append("  [[ $cur == -* ]] && words=$opts\n");
    b.append("  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n");
    b.append("}\n");
    b.append("complete -F _lmctfy lmctfy\n");
    return b.toString();
  }

  /**
   * The command words and the options after each command path ({@code list_containers}; the root's
   * is empty), and the options that take a value.
   */
  private static void collect(
      Command cmd,
      String path,
      Map<String, String> words,
      Map<String, String> options,
      List<String> withValue,
      Command root) {
    List<String> commands = new ArrayList<>();
    for (Command c : cmd.subcommands()) {
      commands.add(c.name());
    }
    List<String> all = new ArrayList<>();
    for (Opt o : cmd == root ? root.options() : concat(cmd.options(), root.options())) {
      all.addAll(o.names());
      if (o.label() != null && !withValue.contains(String.join("|", o.names()))) {
        withValue.add(String.join("|", o.names()));
      }
    }
    words.put(path, String.join(" ", commands));
    options.put(path, String.join(" ", all));
    for (Command c : cmd.subcommands()) {
      collect(
          c, path.isEmpty() ? c.name() : path + "_" + c.name(), words, options, withValue, root);
    }
  }

  private static List<Opt> concat(List<Opt> a, List<Opt> b) {
    List<Opt> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /**
   * Writes the script to the file {@code args[0]}: the build's step that makes it.
   *
   * @param args the script's path
   * @throws IOException if it cannot be written
   */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, script(Lmctfy.tree()), StandardCharsets.UTF_8);
  }
}
