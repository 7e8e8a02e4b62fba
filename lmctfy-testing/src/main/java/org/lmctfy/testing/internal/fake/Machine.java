package org.lmctfy.testing.internal.fake;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.lmctfy.cgroupfs.Errno;

/**
 * What the fake machine has: online cpus and memory nodes, block devices ("254:0"), huge page sizes
 * as cgroup file names spell them ("2MB"), RDMA devices ("mlx4_0"), misc resources with their
 * capacity ("sev" 16), and the interface files its kernel was built without ("memory.zswap.max": no
 * zswap).
 */
public record Machine(
    String cpus,
    String mems,
    List<String> blockDevices,
    List<String> hugepageSizes,
    List<String> rdmaDevices,
    Map<String, Long> miscCapacity,
    java.util.Set<String> absentFiles) {

  public Machine {
    CpuList.read(cpus);
    CpuList.read(mems);
    blockDevices = List.copyOf(blockDevices);
    hugepageSizes = List.copyOf(hugepageSizes);
    rdmaDevices = List.copyOf(rdmaDevices);
    miscCapacity = java.util.Collections.unmodifiableMap(new TreeMap<>(miscCapacity));
    absentFiles = java.util.Set.copyOf(absentFiles);
  }

  BitSet cpuSet() {
    return CpuList.read(cpus);
  }

  BitSet memSet() {
    return CpuList.read(mems);
  }

  /**
   * {@code majMin} if it is one of the block devices; EINVAL unless it reads "MAJ:MIN", else
   * ENODEV.
   */
  String blockDevice(String majMin) {
    if (!majMin.matches("[0-9]+:[0-9]+")) {
      throw KernelError.of(Errno.EINVAL);
    }
    if (!blockDevices.contains(majMin)) {
      throw KernelError.of(Errno.ENODEV);
    }
    return majMin;
  }
}
