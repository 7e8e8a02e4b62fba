package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lmctfy.cgroupfs.Errno;

/**
 * The rdma controller (Documentation/admin-guide/cgroup-v2.rst "RDMA"): below the root, rdma.max
 * and rdma.current list every RDMA device of the machine, one line each, {@code "mlx4_0
 * hca_handle=max hca_object=max"}. A write names a device and sets the resources it gives ("max" or
 * a non-negative int); an unknown device is ENODEV (checked on 6.1 and 6.12, which have none), an
 * unknown resource or a bad number EINVAL.
 */
final class RdmaV2 extends Controller {
  private static final List<String> RESOURCES = List.of("hca_handle", "hca_object");

  private final Machine machine;

  RdmaV2(Machine machine) {
    super("rdma", List.of(ro("rdma.current", null).childOnly(), rw("rdma.max", null).childOnly()));
    this.machine = machine;
  }

  @Override
  public String read(Node node, FileSpec file) {
    StringBuilder sb = new StringBuilder();
    for (String device : machine.rdmaDevices()) {
      Map<String, String> limits = limits(node, device);
      sb.append(device);
      limits.forEach(
          (k, v) ->
              sb.append(' ')
                  .append(k)
                  .append('=')
                  .append(file.name().equals("rdma.max") ? v : "0"));
      sb.append('\n');
    }
    return sb.toString();
  }

  private static Map<String, String> limits(Node node, String device) {
    Map<String, String> out = new LinkedHashMap<>();
    RESOURCES.forEach(r -> out.put(r, "max"));
    String stored = node.value("rdma.max." + device);
    if (stored != null) {
      for (String kv : stored.split(" ")) {
        out.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
    }
    return out;
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String[] f = Numbers.strip(value).split("\\s+");
    if (!machine.rdmaDevices().contains(f[0])) {
      throw KernelError.of(Errno.ENODEV);
    }
    Map<String, String> limits = limits(node, f[0]);
    for (int i = 1; i < f.length; i++) {
      int eq = f[i].indexOf('=');
      if (eq < 0 || !RESOURCES.contains(f[i].substring(0, eq))) {
        throw KernelError.of(Errno.EINVAL);
      }
      String v = f[i].substring(eq + 1);
      limits.put(
          f[i].substring(0, eq), v.equals("max") ? "max" : Integer.toString(Numbers.kstrtoint(v)));
      if (!v.equals("max") && Numbers.kstrtoint(v) < 0) {
        throw KernelError.of(Errno.EINVAL);
      }
    }
    StringBuilder kv = new StringBuilder();
    limits.forEach(
        (k, v) -> kv.append(kv.length() == 0 ? "" : " ").append(k).append('=').append(v));
    node.put("rdma.max." + f[0], kv.toString());
  }
}
