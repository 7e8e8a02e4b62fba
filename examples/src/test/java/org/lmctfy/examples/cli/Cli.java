package org.lmctfy.examples.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs the CLI's main entry in this JVM on a chosen backend and keeps what it printed. */
final class Cli {
  /** One invocation: the exit code and what went to stdout and stderr. */
  record Result(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  private final Backend.Factory backends;
  private final List<String> leading;

  private Cli(Backend.Factory backends, List<String> leading) {
    this.backends = backends;
    this.leading = leading;
  }

  /** Every invocation works on {@code backend} (one fake shared by invocations, say). */
  static Cli on(Backend backend, String... leadingArgs) {
    return new Cli((kind, layout) -> backend, List.of(leadingArgs));
  }

  /** Every invocation opens its backend with {@code backends}. */
  static Cli with(Backend.Factory backends) {
    return new Cli(backends, List.of());
  }

  /** The tool as a user runs it: --backend chooses, a fresh fake per invocation. */
  static Cli real(String... leadingArgs) {
    return new Cli(Backend::open, List.of(leadingArgs));
  }

  Result run(String... args) {
    List<String> all = new ArrayList<>(leading);
    all.addAll(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Lmctfy.run(
            all.toArray(String[]::new),
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            backends);
    return new Result(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
