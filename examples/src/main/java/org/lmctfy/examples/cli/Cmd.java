package org.lmctfy.examples.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every leaf command shares: the tool's options, the API and printing. */
abstract class Cmd implements Callable<Integer> {
  /** The default container of commands whose name is optional: the caller's own (or the root). */
  static final String CALLERS_CONTAINER = ".";

  @Spec
  CommandSpec commandSpec;

  Lmctfy top() {
    return (Lmctfy) commandSpec.root().userObject();
  }

  ContainerApi api() {
    return top().api();
  }

  /** Prints {@code output} in the chosen style; returns 0 (OK). */
  int print(Output output) {
    output.print(top().out, top().style());
    return 0;
  }

  /**
   * The spec text: from {@code -c file} or inline, exactly one of them, as lmctfy required
   * ({@code allowNeither}: neither means an empty spec).
   */
  static String specText(Path file, String inline, boolean allowNeither) {
    if (file != null && inline != null) {
      throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, "give the spec inline or with -c <file>, not both");
    }
    if (file == null && inline == null) {
      if (allowNeither) {
        return "";
      }
      throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, "a spec is needed, inline or with -c <file>");
    }
    if (inline != null) {
      return inline;
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, "cannot read the spec file " + file + ": " + e, e);
    }
  }

  /** lmctfy's default process for {@code detect} and {@code enter}: the caller's parent (the shell). */
  static long parentPid() {
    return ProcessHandle.current().parent().map(ProcessHandle::pid).orElseThrow(
        () -> new LmctfyException(ErrorCode.FAILED_PRECONDITION, "this process has no parent to default to; give a pid"));
  }
}
