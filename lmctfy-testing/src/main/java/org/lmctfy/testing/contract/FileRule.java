package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.contract.CgroupFsContractSupport.assertErrno;

import java.io.IOException;
import java.util.List;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * One rule of a controller's interface files as a row of a contract's table: steps on a fresh
 * cgroup of that controller, checked in the order written; the row's name is its display name.
 *
 * <pre>{@code
 * rule("cpu.idle takes 0 or 1", "cpu",
 *     reads("cpu.idle", "0"), refuses(Errno.EINVAL, "cpu.idle", "2"), takes("cpu.idle", "1", "1"))
 * }</pre>
 */
final class FileRule {
  /** One step of a rule, on the cgroup {@code p} of {@code h}. */
  interface Step {
    void check(CgroupFsContractSupport c, Hierarchy h, CgroupPath p) throws IOException;
  }

  private final String name;
  private final String controller;
  private final List<Step> steps;

  private FileRule(String name, String controller, List<Step> steps) {
    this.name = name;
    this.controller = controller;
    this.steps = steps;
  }

  /** A rule of {@code controller}'s files: {@code steps} in order. */
  static FileRule rule(String name, String controller, Step... steps) {
    return new FileRule(name, controller, List.of(steps));
  }

  /** A rule of the core files every cgroup has: {@code steps} in order. */
  static FileRule rule(String name, Step... steps) {
    return new FileRule(name, "", List.of(steps));
  }

  /** The controller whose files the rule is about; empty for the core files. */
  String controller() {
    return controller;
  }

  /** {@code file} reads {@code expected}, without its trailing newline. */
  static Step reads(String file, String expected) {
    return (c, h, p) -> assertThat(c.read(h, p, file)).isEqualTo(expected);
  }

  /** {@code file} reads exactly {@code content}, newlines and all. */
  static Step readsExactly(String file, String content) {
    return (c, h, p) -> assertThat(c.fs.read(h, p, file)).isEqualTo(content);
  }

  /** {@code file}'s content starts with {@code prefix}. */
  static Step readsStartingWith(String file, String prefix) {
    return (c, h, p) -> assertThat(c.fs.read(h, p, file)).startsWith(prefix);
  }

  /** Writes {@code value} to {@code file}, which must take it. */
  static Step writes(String file, String value) {
    return (c, h, p) -> c.fs.write(h, p, file, value);
  }

  /** {@code file} takes {@code value} and then reads {@code readsBack}. */
  static Step takes(String file, String value, String readsBack) {
    return (c, h, p) -> assertThat(c.writeAndRead(h, p, file, value)).isEqualTo(readsBack);
  }

  /** Writing each of {@code values} fails with {@code errno} and leaves {@code file} as it was. */
  static Step refuses(Errno errno, String file, String... values) {
    return (c, h, p) -> {
      for (String value : values) {
        c.assertWriteRefused(errno, h, p, file, value);
      }
    };
  }

  /** Writing each of {@code values} to {@code file} fails with {@code errno}. */
  static Step writeFails(Errno errno, String file, String... values) {
    return (c, h, p) -> {
      for (String value : values) {
        assertErrno(errno, () -> c.fs.write(h, p, file, value));
      }
    };
  }

  /** Reading {@code file} fails with {@code errno}. */
  static Step readFails(Errno errno, String file) {
    return (c, h, p) -> assertErrno(errno, () -> c.fs.read(h, p, file));
  }

  /** Checks the steps on {@code p}, a fresh cgroup of {@code h}. */
  void check(CgroupFsContractSupport c, Hierarchy h, CgroupPath p) throws IOException {
    assertThat(steps).as("the steps of %s", name).isNotEmpty();
    for (Step s : steps) {
      s.check(c, h, p);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
