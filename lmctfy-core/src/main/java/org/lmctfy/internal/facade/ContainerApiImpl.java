package org.lmctfy.internal.facade;

import java.util.Objects;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.InitSpec;

/** The {@link ContainerApi} over one {@link CgroupFs}. */
public final class ContainerApiImpl implements ContainerApi {
  private final CgroupFs fs;
  private final CgroupPath root;

  public ContainerApiImpl(CgroupFs fs, CgroupPath root) {
    this.fs = Objects.requireNonNull(fs, "fs");
    this.root = Objects.requireNonNull(root, "root");
  }

  @Override
  public CgroupFs cgroupFs() {
    return fs;
  }

  @Override
  public CgroupPath root() {
    return root;
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
    new MachineInit(fs, root).run(Objects.requireNonNull(spec, "spec"));
  }

  @Override
  public CleanupReport cleanup() {
    throw unimplemented("cleanup");
  }

  @Override
  public void close() {}
}
