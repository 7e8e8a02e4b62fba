package org.lmctfy.internal.naming;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;

/** Any string is either a valid name confined below the root, or INVALID_ARGUMENT; nothing else. */
class ContainerNamePropertyTest {
  private static final CgroupPath ROOT = CgroupPath.of("/scratch/root");

  @Provide
  Arbitrary<String> names() {
    Arbitrary<String> piece =
        Arbitraries.oneOf(
            Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8),
            Arbitraries.of(
                "..",
                ".",
                "/",
                "//",
                "\0",
                "tasks",
                "cgroup.procs",
                "memory.max",
                "_x",
                "-x",
                "ü",
                " ",
                "x".repeat(300)),
            Arbitraries.strings().all().ofMaxLength(6),
            Arbitraries.strings().ascii().ofMaxLength(12));
    return piece.list().ofMaxSize(12).map(parts -> String.join("", parts));
  }

  @Property(tries = 3000)
  void everyStringIsAConfinedNameOrAnInvalidArgument(@ForAll("names") String name) {
    ContainerName caller = ContainerName.resolve("/caller/deep", ContainerName.root());
    try {
      ContainerName resolved = ContainerName.resolve(name, caller);
      CgroupPath path = resolved.path(ROOT);
      assertThat(ROOT.isAncestorOrSelf(path)).as("%s resolves inside the root", name).isTrue();
      assertThat(resolved.value()).matches("/|(/[A-Za-z0-9][A-Za-z0-9_.-]*)+");
      assertThat(resolved.value().length()).isLessThanOrEqualTo(ContainerName.MAX_LENGTH);
      assertThat(ContainerName.resolve(resolved.value(), ContainerName.root())).isEqualTo(resolved);
    } catch (LmctfyException e) {
      assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
      assertThat(e.getMessage()).startsWith("invalid container name");
    }
  }
}
