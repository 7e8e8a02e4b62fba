package org.lmctfy.examples;

import org.lmctfy.LmctfyException;

/**
 * How the examples' {@code main}s end: a usage line for missing arguments (exit 3), a failure as
 * {@code <code>: <message>} with its status number as the exit code, and no stack trace unless
 * {@code -Dlmctfy.debug=true}.
 */
final class ExampleMain {
  private ExampleMain() {}

  /** The body of a {@code main}: returns the exit code. */
  @FunctionalInterface
  interface Body {
    int run() throws Exception;
  }

  /**
   * Runs {@code body} if {@code args} has at least {@code minArgs} arguments; exits with its code.
   */
  static void run(String usage, int minArgs, String[] args, Body body) {
    if (args.length < minArgs) {
      System.err.println("usage: " + usage);
      System.exit(3); // INVALID_ARGUMENT, as the lmctfy tool
    }
    int code;
    try {
      code = body.run();
    } catch (LmctfyException e) {
      System.err.println(e.code().number() + ": " + e.getMessage());
      debug(e);
      code = e.code().number();
    } catch (Exception e) {
      System.err.println("13: " + e + " (run with -Dlmctfy.debug=true for the stack trace)");
      debug(e);
      code = 13; // INTERNAL
    }
    System.exit(code);
  }

  private static void debug(Exception e) {
    if (Boolean.getBoolean("lmctfy.debug")) {
      e.printStackTrace();
    }
  }
}
