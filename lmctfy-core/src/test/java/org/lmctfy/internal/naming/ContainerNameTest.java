package org.lmctfy.internal.naming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

class ContainerNameTest {
  private static final ContainerName CALLER =
      ContainerName.resolve("/sys/job", ContainerName.root());

  private static String invalid(String name) {
    LmctfyException e =
        catchThrowableOfType(LmctfyException.class, () -> ContainerName.resolve(name, CALLER));
    assertThat(e).as(name).isNotNull();
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    return e.getMessage();
  }

  @Test
  void relativeNamesJoinTheCallersContainerAndDotsResolve() {
    assertThat(ContainerName.resolve("sub", CALLER).value()).isEqualTo("/sys/job/sub");
    assertThat(ContainerName.resolve("./a/../b", CALLER).value()).isEqualTo("/sys/job/b");
    assertThat(ContainerName.resolve("..", CALLER).value()).isEqualTo("/sys");
    assertThat(ContainerName.resolve("/", CALLER).isRoot()).isTrue();
    assertThat(ContainerName.resolve("//a///b/", CALLER).value()).isEqualTo("/a/b");
  }

  @Test
  void aNameCannotLeaveTheRoot() {
    assertThat(invalid("/..")).contains("above the root");
    assertThat(invalid("../../..")).contains("above the root");
  }

  @Test
  void charactersOutsideLmctfysSetAreRefusedWithTheirPosition() {
    assertThat(invalid("/a b")).contains("' '", "position 2");
    assertThat(invalid("/a\0b")).contains("U+0000");
    assertThat(invalid("/é")).contains("U+00E9");
  }

  @Test
  void componentsStartWithALetterOrDigit() {
    assertThat(invalid("/_x")).contains("\"_x\"", "letter or digit");
    assertThat(invalid("/a/.hidden")).contains("\".hidden\"");
  }

  @Test
  void componentsThatLookLikeKernelFilesAreRefused() {
    for (String bad :
        new String[] {
          "/tasks",
          "/a/notify_on_release",
          "/release_agent",
          "/cgroup.procs",
          "/memory.max",
          "/cpu.shares",
          "/a/pids.max"
        }) {
      assertThat(invalid(bad)).contains("kernel interface file");
    }
    assertThat(ContainerName.resolve("/memoryhog.1", CALLER).value()).isEqualTo("/memoryhog.1");
  }

  @Test
  void lengthsAreLimited() {
    assertThat(invalid("/" + "a".repeat(ContainerName.MAX_COMPONENT + 1)))
        .contains("longer than 200");
    assertThat(invalid("/a".repeat(600))).contains("more than 1024");
    assertThat(invalid("")).contains("empty");
  }
}
