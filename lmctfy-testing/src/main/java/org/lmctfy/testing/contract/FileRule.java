package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * One rule of a controller's interface files as a row of a contract's table: steps on a fresh
 * cgroup {@code a} below the scratch parent, checked in the order written. Each step starts on the
 * file last named ({@link #file}); the row's name is its display name.
 */
final class FileRule {
  private interface Step {
    void check(CgroupFsContractSupport c, Hierarchy h, CgroupPath p) throws IOException;
  }

  private final String name;
  private final String controller;
  private final List<Step> steps = new ArrayList<>();
  private String file;

  private FileRule(String name, String controller, String file) {
    this.name = name;
    this.controller = controller;
    this.file = file;
  }

  /** A rule of {@code controller}'s files whose steps start on {@code file}. */
  static FileRule rule(String name, String controller, String file) {
    return new FileRule(name, controller, file);
  }

  String controller() {
    return controller;
  }

  /** The following steps are on {@code next}. */
  FileRule file(String next) {
    this.file = next;
    return this;
  }

  /** The file reads {@code expected}, without its trailing newline. */
  FileRule reads(String expected) {
    String f = file;
    steps.add((c, h, p) -> assertThat(c.read(h, p, f)).isEqualTo(expected));
    return this;
  }

  /** The file reads exactly {@code content}, newlines and all. */
  FileRule readsExactly(String content) {
    String f = file;
    steps.add((c, h, p) -> assertThat(c.fs.read(h, p, f)).isEqualTo(content));
    return this;
  }

  /** The file's content starts with {@code prefix}. */
  FileRule readsStartingWith(String prefix) {
    String f = file;
    steps.add((c, h, p) -> assertThat(c.fs.read(h, p, f)).startsWith(prefix));
    return this;
  }

  /** Writes {@code value}, which must be taken. */
  FileRule writes(String value) {
    String f = file;
    steps.add((c, h, p) -> c.fs.write(h, p, f, value));
    return this;
  }

  /** Writing {@code value} is taken and the file then reads {@code readsBack}. */
  FileRule takes(String value, String readsBack) {
    String f = file;
    steps.add((c, h, p) -> assertThat(c.writeAndRead(h, p, f, value)).isEqualTo(readsBack));
    return this;
  }

  /** Writing each of {@code values} fails with {@code errno} and leaves the file as it was. */
  FileRule refuses(Errno errno, String... values) {
    String f = file;
    for (String value : values) {
      steps.add((c, h, p) -> c.assertWriteRefused(errno, h, p, f, value));
    }
    return this;
  }

  /** Writing each of {@code values} fails with {@code errno} (for files that cannot be read). */
  FileRule writeFails(Errno errno, String... values) {
    String f = file;
    for (String value : values) {
      steps.add(
          (c, h, p) ->
              CgroupFsContractSupport.assertErrno(errno, () -> c.fs.write(h, p, f, value)));
    }
    return this;
  }

  /** Reading the file fails with {@code errno}. */
  FileRule readFails(Errno errno) {
    String f = file;
    steps.add((c, h, p) -> CgroupFsContractSupport.assertErrno(errno, () -> c.fs.read(h, p, f)));
    return this;
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
