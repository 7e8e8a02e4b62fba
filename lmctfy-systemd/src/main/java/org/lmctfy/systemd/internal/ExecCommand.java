package org.lmctfy.systemd.internal;

import java.util.List;
import org.freedesktop.dbus.Struct;
import org.freedesktop.dbus.annotations.Position;

/**
 * One {@code (sasb)} of {@code ExecStart}: the path, the whole argv (argv[0] too), whether a
 * failure is ignored.
 */
public final class ExecCommand extends Struct {
  /** The program's absolute path. */
  @Position(0)
  public final String path;

  /** Its argv, argv[0] first. */
  @Position(1)
  public final List<String> argv;

  /** Whether its failure is ignored. */
  @Position(2)
  public final boolean ignoreFailure;

  /**
   * A command.
   *
   * @param path the program's absolute path
   * @param argv its argv
   * @param ignoreFailure whether its failure is ignored
   */
  public ExecCommand(String path, List<String> argv, boolean ignoreFailure) {
    this.path = path;
    this.argv = argv;
    this.ignoreFailure = ignoreFailure;
  }
}
