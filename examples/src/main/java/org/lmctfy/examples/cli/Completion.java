package org.lmctfy.examples.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;

/** {@code lmctfy completion}: picocli's bash (and zsh) completion script for every command. */
@Command(name = "completion", description = {"Print a bash completion script for lmctfy.",
    "Use: source <(java -jar examples/target/lmctfy.jar completion)"})
final class Completion extends Cmd {
  @Override
  public Integer call() {
    top().out.print(AutoComplete.bash("lmctfy", commandSpec.root().commandLine()));
    top().out.flush();
    return 0;
  }
}
