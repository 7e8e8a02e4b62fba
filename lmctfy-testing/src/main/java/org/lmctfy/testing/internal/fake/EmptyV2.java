package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/**
 * rdma and misc on v2: the fake machine has no RDMA devices and no misc resources, so their files
 * are empty and every limit written names an unknown resource (EINVAL).
 */
final class EmptyV2 implements Controller {
  private final String name;
  private final List<FileSpec> files;

  EmptyV2(String name) {
    this.name = name;
    this.files = name.equals("rdma")
        ? List.of(ro("rdma.current", ""), rw("rdma.max", "").childOnly())
        : List.of(ro("misc.capacity", "").rootOnly(), ro("misc.current", ""),
            ro("misc.events", "").childOnly(), rw("misc.max", "").childOnly(), ro("misc.peak", ""));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<FileSpec> files() {
    return files;
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    throw KernelError.of(Errno.EINVAL);
  }
}
