package org.lmctfy.testing.internal.fake;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the fake machine has: online cpus and memory nodes, block devices ("254:0"), huge page
 * sizes as cgroup file names spell them ("2MB"), RDMA devices ("mlx4_0") and misc resources with
 * their capacity ("sev" 16).
 */
public record Machine(String cpus, String mems, List<String> blockDevices, List<String> hugepageSizes,
    List<String> rdmaDevices, Map<String, Long> miscCapacity) {

  public Machine {
    CpuList.read(cpus);
    CpuList.read(mems);
    blockDevices = List.copyOf(blockDevices);
    hugepageSizes = List.copyOf(hugepageSizes);
    rdmaDevices = List.copyOf(rdmaDevices);
    miscCapacity = java.util.Collections.unmodifiableMap(new TreeMap<>(miscCapacity));
  }

  BitSet cpuSet() {
    return CpuList.read(cpus);
  }

  BitSet memSet() {
    return CpuList.read(mems);
  }
}
