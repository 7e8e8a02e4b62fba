package org.lmctfy.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/**
 * Which containers a metrics binding reads, and which series each one counts in: the one choice
 * that {@code org.lmctfy.micrometer.ContainerMetrics} and {@code
 * org.lmctfy.opentelemetry.ContainerMetrics} share.
 *
 * <p>The containers are a fixed set ({@link #containers}: each that exists at a collection is read,
 * one that does not is left out until it does) or the children of a parent ({@link #childrenOf}),
 * listed again at each collection so that new containers appear and destroyed ones disappear. A
 * child's own figures count its descendants (the kernel's are hierarchical), so the grandchildren
 * are not read; to see a whole subtree as one, select its root.
 *
 * <p>The series, and so the tags, are bounded by this choice alone:
 *
 * <ul>
 *   <li>by default one series: the containers' values summed, with no tag of their own;
 *   <li>{@link #withContainerNameTag()}: a series per container, tagged {@value #CONTAINER_NAME}
 *       with its name, as many as there are containers: only where that number is bounded;
 *   <li>{@link #withLabel}: a series per label that the user's function gives a container's name,
 *       tagged {@value #LABEL}; the containers of a label are summed, one left out where it gives
 *       null.
 * </ul>
 *
 * <p>A series' gauge (usage, a limit) is the sum of its containers' values, and absent where any of
 * them lacks the value (a container without a limit leaves its series without one). A series'
 * counter (CPU time, pressure stalls) never goes down: what a container counted stays in its series
 * after it leaves it (destroyed, or made again under its name), for as long as the series has
 * containers.
 * <!-- snippet: lmctfy-metrics/src/test/java/org/lmctfy/metrics/ContainerSelectionTest.java -->
 *
 * <pre>{@code
 * ContainerSelection jobs =
 *     ContainerSelection.childrenOf("/jobs") // its children, as they come and go
 *         .withLabel(name -> name.replaceAll("-[0-9]+$", "")); // /jobs/map-17 counts in /jobs/map
 * }</pre>
 *
 * <p>Immutable and thread-safe, if the label function is.
 *
 * @since 0.2
 */
public final class ContainerSelection {
  /** The tag of a series per container: OpenTelemetry's attribute for a container's name. */
  public static final String CONTAINER_NAME = "container.name";

  /** The tag of a series per label. */
  public static final String LABEL = "lmctfy.container.label";

  private final List<String> names;
  private final @Nullable String parent;
  private final @Nullable String tag;
  private final @Nullable Function<String, @Nullable String> labelOf;

  private ContainerSelection(
      List<String> names,
      @Nullable String parent,
      @Nullable String tag,
      @Nullable Function<String, @Nullable String> labelOf) {
    this.names = names;
    this.parent = parent;
    this.tag = tag;
    this.labelOf = labelOf;
  }

  /**
   * A fixed set of containers, in one series.
   *
   * @param names the containers' names, each once
   * @throws LmctfyException INVALID_ARGUMENT for no name, a null or a repeated one
   */
  public static ContainerSelection containers(Collection<String> names) {
    List<String> list = new ArrayList<>(Objects.requireNonNull(names, "names"));
    if (list.isEmpty() || list.contains(null) || new HashSet<>(list).size() != list.size()) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "ContainerSelection.containers must name at least one container, each once, without"
              + " null: "
              + list);
    }
    return new ContainerSelection(List.copyOf(list), null, null, null);
  }

  /**
   * The children of {@code parent}, listed at each collection, in one series.
   *
   * @param parent the parent container's name ({@code "/"} for the root container's)
   */
  public static ContainerSelection childrenOf(String parent) {
    return new ContainerSelection(List.of(), Objects.requireNonNull(parent, "parent"), null, null);
  }

  /** These containers, a series each, tagged {@value #CONTAINER_NAME} with the container's name. */
  public ContainerSelection withContainerNameTag() {
    return new ContainerSelection(names, parent, CONTAINER_NAME, null);
  }

  /**
   * These containers, a series per label, tagged {@value #LABEL}: {@code labelOf} gives the label
   * of a container's name, or null to leave the container out. The series are as many as the labels
   * it gives.
   *
   * @param labelOf a container's label from its name, or null
   */
  public ContainerSelection withLabel(Function<String, @Nullable String> labelOf) {
    return new ContainerSelection(names, parent, LABEL, Objects.requireNonNull(labelOf, "labelOf"));
  }

  /** The fixed set's names; empty for {@link #childrenOf}. */
  public List<String> names() {
    return names;
  }

  /** The parent whose children are read, or null for a fixed set. */
  public @Nullable String parent() {
    return parent;
  }

  /**
   * The tag whose value tells the series apart ({@value #CONTAINER_NAME} or {@value #LABEL}), or
   * null for one series.
   */
  public @Nullable String tag() {
    return tag;
  }

  /**
   * The series {@code container} counts in: the value of {@link #tag()}, {@code ""} where there is
   * one series, or null where the label function leaves the container out.
   *
   * @param container a container's name
   */
  public @Nullable String seriesOf(String container) {
    if (tag == null) {
      return "";
    }
    return labelOf == null ? container : labelOf.apply(container);
  }

  @Override
  public String toString() {
    return (parent == null ? "containers " + names : "children of " + parent)
        + (tag == null ? ", one series" : ", a series per " + tag);
  }
}
