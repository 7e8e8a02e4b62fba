package org.lmctfy.examples.cli;

import org.lmctfy.examples.ShowHierarchies;
import picocli.CommandLine.Command;

/** {@code lmctfy demo}: the main job of the README ({@link ShowHierarchies}), on the chosen backend. */
@Command(name = "demo", description = {"List the hierarchies, then create, show and destroy a demo container.",
    "Uses the host as root; otherwise the fake (and says so), whatever --backend says."})
final class Demo extends Cmd {
  @Override
  public Integer call() throws Exception {
    ShowHierarchies.run(top().out);
    return 0;
  }
}
