package org.lmctfy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.testing.CgroupAssertions;

class ContainerSelectionTest {
  @Test
  void byDefaultTheContainersMakeOneSeriesWithoutATag() {
    ContainerSelection batch = ContainerSelection.childrenOf("/batch");
    assertThat(batch.parent()).isEqualTo("/batch");
    assertThat(batch.names()).isEmpty();
    assertThat(batch.tag()).isNull();
    assertThat(batch.seriesOf("/batch/job-1")).isEmpty();
  }

  @Test
  void theContainerNameTagMakesASeriesPerContainer() {
    ContainerSelection web =
        ContainerSelection.containers(List.of("/web", "/db")).withContainerNameTag();
    assertThat(web.names()).containsExactly("/web", "/db");
    assertThat(web.tag()).isEqualTo("container.name");
    assertThat(web.seriesOf("/db")).isEqualTo("/db");
  }

  @Test
  void aLabelNamesTheSeries() { // the class's Javadoc example
    ContainerSelection jobs =
        ContainerSelection.childrenOf("/jobs") // its children, as they come and go
            .withLabel(name -> name.replaceAll("-[0-9]+$", "")); // /jobs/map-17 counts in /jobs/map

    assertThat(jobs.tag()).isEqualTo("lmctfy.container.label");
    assertThat(jobs.seriesOf("/jobs/map-17")).isEqualTo("/jobs/map");
  }

  @Test
  void aLabelOfNullLeavesAContainerOut() {
    ContainerSelection jobs =
        ContainerSelection.childrenOf("/jobs").withLabel(n -> n.startsWith("/jobs/tmp") ? null : n);
    assertThat(jobs.seriesOf("/jobs/tmp-3")).isNull();
    assertThat(jobs.seriesOf("/jobs/map-3")).isEqualTo("/jobs/map-3");
  }

  @Test
  void theLastTagAskedForIsTheOne() {
    ContainerSelection s =
        ContainerSelection.childrenOf("/a").withLabel(n -> "x").withContainerNameTag();
    assertThat(s.tag()).isEqualTo("container.name");
    assertThat(s.seriesOf("/a/b")).isEqualTo("/a/b");
  }

  @Test
  void aFixedSetNamesEachContainerOnceWithoutNull() {
    for (List<String> bad :
        List.of(List.<String>of(), List.of("/a", "/a"), Arrays.asList("/a", null))) {
      CgroupAssertions.assertThatLmctfyException(() -> ContainerSelection.containers(bad))
          .hasCode(ErrorCode.INVALID_ARGUMENT)
          .hasMessageContaining("ContainerSelection.containers");
    }
  }
}
