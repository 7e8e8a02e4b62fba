package org.lmctfy.yarn;

import java.io.IOException;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.proto.YarnProtos.ApplicationIdProto;
import org.apache.hadoop.yarn.proto.YarnServerNodemanagerRecoveryProtos.ContainerManagerApplicationProto;
import org.apache.hadoop.yarn.server.nodemanager.recovery.NMStateStoreService;
import org.apache.hadoop.yarn.server.nodemanager.recovery.NMStateStoreService.RecoveredContainerState;
import org.apache.hadoop.yarn.server.nodemanager.recovery.NMStateStoreService.RecoveredContainerStatus;
import org.apache.hadoop.yarn.server.nodemanager.recovery.RecoveryIterator;
import org.lmctfy.CleanupReport;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.spec.ContainerSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a NodeManager's executor does at start, before the NodeManager recovers anything: lmctfy's
 * {@code cleanup()} finishes every container a crash left half-made or half-destroyed, then every
 * container below the container root that this NodeManager will not reacquire is destroyed with its
 * processes: those of applications its state store does not hold, those it holds as completed or
 * never launched, and all of them when recovery is off. Nothing is left for a person.
 */
final class NodeCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(NodeCleanup.class);

  /** The states in which a recovering NodeManager reacquires a container through its executor. */
  private static final Set<RecoveredContainerStatus> REACQUIRED =
      EnumSet.of(RecoveredContainerStatus.LAUNCHED, RecoveredContainerStatus.PAUSED);

  private NodeCleanup() {}

  /**
   * The ids of the containers a NodeManager with {@code store} will reacquire: none unless it
   * recovers; else those launched or paused of the applications it holds.
   *
   * @throws IOException if the state store cannot be read
   */
  static Set<String> reacquired(NMStateStoreService store) throws IOException {
    if (!store.canRecover()) {
      return Set.of();
    }
    Set<ApplicationId> applications = new HashSet<>();
    try (RecoveryIterator<ContainerManagerApplicationProto> it =
        store.loadApplicationsState().getIterator()) {
      while (it.hasNext()) {
        ApplicationIdProto id = it.next().getId();
        applications.add(ApplicationId.newInstance(id.getClusterTimestamp(), id.getId()));
      }
    }
    Set<String> out = new HashSet<>();
    try (RecoveryIterator<RecoveredContainerState> it = store.getContainerStateIterator()) {
      while (it.hasNext()) {
        RecoveredContainerState c = it.next();
        if (REACQUIRED.contains(c.getStatus())
            && applications.contains(
                c.getContainerId().getApplicationAttemptId().getApplicationId())) {
          out.add(c.getContainerId().toString());
        }
      }
    }
    return out;
  }

  /**
   * Finishes what crashes left, makes {@code root} if it is not there and destroys its
   * subcontainers but {@code keep}.
   *
   * @return the names destroyed
   * @throws org.lmctfy.LmctfyException if lmctfy refuses
   */
  static List<String> run(ContainerApi api, String root, Set<String> keep) {
    CleanupReport report = api.cleanup();
    report.removed().forEach(r -> LOG.info("lmctfy cleanup finished {}", r));
    report.failures().forEach(f -> LOG.warn("lmctfy cleanup left {}", f));
    if (!api.exists(root)) {
      api.create(root, ContainerSpec.empty());
      return List.of();
    }
    List<String> destroyed =
        api.get(root).listSubcontainers(ListPolicy.SELF).stream()
            .filter(name -> !keep.contains(name.substring(name.lastIndexOf('/') + 1)))
            .toList();
    for (String name : destroyed) {
      LOG.info("destroying {}: not a container this NodeManager reacquires", name);
      api.destroy(name);
    }
    return destroyed;
  }
}
