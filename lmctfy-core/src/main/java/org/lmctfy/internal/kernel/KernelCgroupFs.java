package org.lmctfy.internal.kernel;

import java.io.IOException;
import org.lmctfy.cgroupfs.CgroupFs;

/** Placeholder for the kernel backend. */
public final class KernelCgroupFs {
  private KernelCgroupFs() {}

  public static CgroupFs discover() throws IOException {
    throw new IOException("kernel backend not built yet");
  }
}
