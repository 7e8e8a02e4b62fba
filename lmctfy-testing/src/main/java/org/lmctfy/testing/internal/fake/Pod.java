package org.lmctfy.testing.internal.fake;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.testing.FakeLayout;

/**
 * The cgroups around a container of a Kubernetes pod with writable cgroups ({@link
 * FakeLayout#KUBERNETES_POD}), which the container cannot see: the kubelet's tree with the systemd
 * cgroup driver (a burstable pod's slice below {@code kubepods.slice}), every controller enabled on
 * the way down; on the pod's cgroup the two caps the kubelet writes when a container of the pod
 * asks for writable cgroups (KEP-5474; kubernetes/kubernetes#137568); below it containerd's cgroups
 * of the pod's sandbox and of the container, whose cgroup namespace root is the container's.
 */
final class Pod {
  /** The pod's cgroup, in the whole hierarchy. */
  static final CgroupPath POD =
      CgroupPath.of(
          "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0f3c2a9e.slice");

  /** The kubelet's cgroup.max.descendants on the pod's cgroup. */
  static final int MAX_DESCENDANTS = 250;

  /** The kubelet's cgroup.max.depth on the pod's cgroup. */
  static final int MAX_DEPTH = 50;

  /** The container's cgroup: the root of its cgroup namespace, which it sees as {@code /}. */
  static final CgroupPath CONTAINER = POD.resolve("cri-containerd-7c41d2.scope");

  /** The cgroup of the pod's sandbox (its pause process), beside the container's. */
  private static final String SANDBOX = "cri-containerd-5a09e8.scope";

  private Pod() {}

  /**
   * The kubelet's and containerd's part of {@code h}, a hierarchy seen from {@link #CONTAINER}:
   * every ancestor of the container enables the hierarchy's controllers for its children, the pod
   * carries the caps, the sandbox's cgroup is the container's sibling.
   */
  static void lay(Hier h) {
    List<String> all = new ArrayList<>(Layouts.V2_CONTROLLERS);
    all.sort(Subsystems.ORDER);
    String enabled = String.join(" ", all) + "\n";
    for (Node a = h.root.parent; a != null; a = a.parent) {
      a.put(CoreV2.SUBTREE, enabled);
    }
    Node pod = h.root.parent;
    pod.put("cgroup.max.descendants", MAX_DESCENDANTS + "\n");
    pod.put("cgroup.max.depth", MAX_DEPTH + "\n");
    h.addOutside(pod, SANDBOX, POD.resolve(SANDBOX));
  }
}
