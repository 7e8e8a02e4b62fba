package org.lmctfy.internal.facade;

import java.util.Objects;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.InitSpec;

/** The {@link ContainerApi} over one {@link CgroupFs}. */
public final class ContainerApiImpl implements ContainerApi {
  private final CgroupFs fs;

  public ContainerApiImpl(CgroupFs fs) {
    this.fs = Objects.requireNonNull(fs, "fs");
  }

  @Override
  public CgroupFs cgroupFs() {
    return fs;
  }

  static LmctfyException unimplemented(String what) {
    return new LmctfyException(ErrorCode.UNIMPLEMENTED, what + " is not implemented yet");
  }

  @Override
  public Container create(String name, ContainerSpec spec) {
    throw unimplemented("create");
  }

  @Override
  public Container get(String name) {
    throw unimplemented("get");
  }

  @Override
  public boolean exists(String name) {
    throw unimplemented("exists");
  }

  @Override
  public void destroy(String name) {
    throw unimplemented("destroy");
  }

  @Override
  public String detect(long pid) {
    throw unimplemented("detect");
  }

  @Override
  public void initMachine(InitSpec spec) {
    throw unimplemented("initMachine");
  }

  @Override
  public CleanupReport cleanup() {
    throw unimplemented("cleanup");
  }

  @Override
  public void close() {}
}
