package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.MemorySpec;

/**
 * memory: {@code limit}, {@code swap_limit} (memory plus swap, as lmctfy) and {@code reservation},
 * in bytes, -1 for unlimited. v1: {@code memory.limit_in_bytes}, {@code
 * memory.memsw.limit_in_bytes}, {@code memory.soft_limit_in_bytes}. v2: {@code memory.max}, {@code
 * memory.swap.max = swap_limit - limit} (swap alone), {@code memory.low}.
 */
final class MemoryHandler {
  private MemoryHandler() {}

  static List<FileWrite> plan(MemorySpec memory, Host host) {
    List<FileWrite> out = new ArrayList<>();
    for (String[] unsupported : new String[][] {{"high", str(memory.high())},
        {"oom_kill_disable", str(memory.oomKillDisable())}, {"oom_group", str(memory.oomGroup())},
        {"swappiness", str(memory.swappiness())}}) {
      if (unsupported[1] != null) {
        throw new LmctfyException(ErrorCode.UNIMPLEMENTED, "memory." + unsupported[0] + " is not supported yet");
      }
    }
    if (memory.limit() == null && memory.swapLimit() == null && memory.reservation() == null) {
      return out;
    }
    Hierarchy h = host.require("memory", "memory");
    boolean v2 = Host.isV2(h);
    if (memory.limit() != null) {
      out.add(new FileWrite(h, v2 ? "memory.max" : "memory.limit_in_bytes", bytes(memory.limit(), v2),
          "memory.limit"));
    }
    if (memory.swapLimit() != null) {
      if (v2) {
        long limit = memory.limit() == null ? -1 : memory.limit();
        String swap = memory.swapLimit() == -1 || limit == -1 ? "max" : Long.toString(memory.swapLimit() - limit);
        out.add(new FileWrite(h, "memory.swap.max", swap, "memory.swap_limit"));
      } else {
        out.add(new FileWrite(h, "memory.memsw.limit_in_bytes", bytes(memory.swapLimit(), false),
            "memory.swap_limit"));
      }
    }
    if (memory.reservation() != null) {
      out.add(new FileWrite(h, v2 ? "memory.low" : "memory.soft_limit_in_bytes", bytes(memory.reservation(), v2),
          "memory.reservation"));
    }
    return out;
  }

  private static String bytes(long value, boolean v2) {
    return value == -1 ? (v2 ? "max" : "-1") : Long.toString(value);
  }

  private static String str(Object o) {
    return o == null ? null : o.toString();
  }
}
