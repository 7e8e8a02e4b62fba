package org.lmctfy.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The executor is compiled against hadoop-client-minicluster, whose NodeManager classes speak in
 * relocated third-party types ({@code org.apache.hadoop.shaded...}); a real NodeManager runs the
 * unshaded jars. So lmctfy-yarn's classes must name no relocated type: then they link against
 * either.
 */
class NoShadedHadoopTypeTest {
  @Test
  void noClassOfTheModuleNamesARelocatedHadoopType() throws IOException {
    Path classes =
        Path.of(
            LmctfyContainerExecutor.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath());
    List<Path> files;
    try (Stream<Path> walk = Files.walk(classes)) {
      files = walk.filter(p -> p.toString().endsWith(".class")).toList();
    }
    assertThat(files).hasSizeGreaterThan(5);
    for (Path f : files) {
      String constants = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
      assertThat(constants).as(f.toString()).doesNotContain("org/apache/hadoop/shaded");
    }
  }
}
