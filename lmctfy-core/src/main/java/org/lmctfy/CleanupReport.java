package org.lmctfy;

import java.util.List;

/**
 * What {@link ContainerApi#cleanup()} removed and what it could not.
 *
 * @param removed each container (or leftover of one) removed, with what was found there
 * @param failures each container or cgroup left in place, and why
 * @since 0.1
 */
public record CleanupReport(List<String> removed, List<String> failures) {
  /** Copies the lists. */
  public CleanupReport {
    removed = List.copyOf(removed);
    failures = List.copyOf(failures);
  }
}
