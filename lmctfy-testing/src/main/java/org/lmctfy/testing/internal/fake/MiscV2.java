package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;

import java.util.List;
import java.util.Map;
import org.lmctfy.cgroupfs.Errno;

/**
 * The misc controller (Documentation/admin-guide/cgroup-v2.rst "Misc"): the root's misc.capacity
 * lists the machine's resources with their capacity ({@code "sev 16"}); below it misc.max has a
 * line per resource ({@code "sev max"}), set by writing {@code "sev 4"} or {@code "sev max"}; a
 * resource the machine does not have is EINVAL (checked on 6.1 and 6.12, whose misc.capacity is
 * empty under QEMU); misc.current, misc.peak and misc.events count per resource.
 */
final class MiscV2 extends Controller {
  private final Machine machine;

  MiscV2(Machine machine) {
    super(
        "misc",
        List.of(
            ro("misc.capacity", null).rootOnly(),
            ro("misc.current", null),
            ro("misc.events", null).childOnly(),
            ro("misc.events.local", null).childOnly(),
            rw("misc.max", null).childOnly(),
            ro("misc.peak", null)));
    this.machine = machine;
  }

  @Override
  public String read(Node node, FileSpec file) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Long> r : machine.miscCapacity().entrySet()) {
      String value =
          switch (file.name()) {
            case "misc.capacity" -> Long.toString(r.getValue());
            case "misc.max" -> {
              String stored = node.value("misc.max." + r.getKey());
              yield stored == null ? "max" : stored;
            }
            default -> "0";
          };
      sb.append(file.name().startsWith("misc.events") ? r.getKey() + ".max" : r.getKey())
          .append(' ')
          .append(value)
          .append('\n');
    }
    return sb.toString();
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String[] f = Numbers.strip(value).split("\\s+");
    if (f.length != 2 || !machine.miscCapacity().containsKey(f[0])) {
      throw KernelError.of(Errno.EINVAL);
    }
    node.put(
        "misc.max." + f[0],
        f[1].equals("max") ? "max" : Long.toUnsignedString(Numbers.kstrtoull(f[1])));
  }
}
