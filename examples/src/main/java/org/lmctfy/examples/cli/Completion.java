package org.lmctfy.examples.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code lmctfy completion}: picocli's bash (and zsh) completion script for every command. The
 * build writes it once into the distribution ({@link #main}); the command prints the same.
 */
@Command(name = "completion", description = {"Print a bash completion script for lmctfy.",
    "Use: source <(lmctfy completion); the distribution has it in share/bash-completion/completions/lmctfy."})
public final class Completion extends Cmd {
  @Override
  public Integer call() {
    top().out.print(script(commandSpec.root().commandLine()));
    top().out.flush();
    return 0;
  }

  private static String script(CommandLine lmctfy) {
    return AutoComplete.bash("lmctfy", lmctfy);
  }

  /** Writes the script to the file {@code args[0]}: the build's step that makes it. */
  public static void main(String[] args) throws IOException {
    PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    Lmctfy top = new Lmctfy(InputStream.nullInputStream(), nowhere, nowhere, (kind, layout) -> {
      throw new IOException("the completion script opens no backend");
    });
    Path out = Path.of(args[0]);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, script(Lmctfy.commandLine(top)), StandardCharsets.UTF_8);
  }
}
