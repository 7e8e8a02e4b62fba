package org.lmctfy;

import java.util.List;

/**
 * What {@link ContainerApi#cleanup()} removed and what it could not.
 *
 * @param removed the display paths of the cgroups removed
 * @param failures for each cgroup it could not remove, the path and why
 * @since 0.1
 */
public record CleanupReport(List<String> removed, List<String> failures) {
  public CleanupReport {
    removed = List.copyOf(removed);
    failures = List.copyOf(failures);
  }
}
