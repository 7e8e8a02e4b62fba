package org.lmctfy.testing.internal.fake;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the fake machine has: online cpus and memory nodes, block devices ("254:0"), huge page
 * sizes as cgroup file names spell them ("2MB"), RDMA devices ("mlx4_0"), misc resources with
 * their capacity ("sev" 16), and the interface files its kernel was built without
 * ("memory.zswap.max": no zswap).
 */
public record Machine(String cpus, String mems, List<String> blockDevices, List<String> hugepageSizes,
    List<String> rdmaDevices, Map<String, Long> miscCapacity, java.util.Set<String> absentFiles) {

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
}
