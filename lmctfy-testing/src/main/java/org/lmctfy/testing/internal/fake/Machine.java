package org.lmctfy.testing.internal.fake;

import java.util.BitSet;
import java.util.List;

/**
 * What the fake machine has: online cpus and memory nodes, block devices ("254:0") and huge page
 * sizes as cgroup file names spell them ("2MB").
 */
public record Machine(String cpus, String mems, List<String> blockDevices, List<String> hugepageSizes) {

  public Machine {
    CpuList.read(cpus);
    CpuList.read(mems);
    blockDevices = List.copyOf(blockDevices);
    hugepageSizes = List.copyOf(hugepageSizes);
  }

  BitSet cpuSet() {
    return CpuList.read(cpus);
  }

  BitSet memSet() {
    return CpuList.read(mems);
  }
}
