package org.lmctfy.internal.process;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.internal.stats.EffectiveLimits;

/**
 * RunSpec's {@code size_jvm}: a {@code java} launcher's argv gets {@code -XX:ActiveProcessorCount}
 * and {@code -XX:MaxRAM} from the limits of the container and its ancestors, right after the
 * launcher (where JVM options go). A JDK before 24 reads only its own cgroup's quota and, on v2,
 * its own {@code memory.max}: in a container nested in a limited one it sizes its GC threads, its
 * common pool and its heap for the machine. With the two flags it sizes itself as a JDK that walks
 * the ancestors does; a flag the argv already sets is left as the caller wrote it.
 */
public final class JvmSizing {
  static final String CPUS = "-XX:ActiveProcessorCount=";
  static final String RAM = "-XX:MaxRAM=";

  private JvmSizing() {}

  /**
   * {@code argv} with the flags the limits call for; INVALID_ARGUMENT when {@code argv[0]} is not a
   * java launcher (a file named {@code java}), since size_jvm would then do nothing.
   */
  public static List<String> argv(List<String> argv, EffectiveLimits limits) {
    String program = argv.isEmpty() ? "" : argv.get(0);
    if (!program.equals("java") && !program.endsWith("/java")) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          "size_jvm: argv[0] '"
              + program
              + "' is not a java launcher (a file named java, on the PATH or as a path), so"
              + " there is no JVM to size; nothing was started");
    }
    List<String> flags = new ArrayList<>(2);
    Integer cpus = cpus(limits);
    if (cpus != null && !sets(argv, CPUS)) {
      flags.add(CPUS + cpus);
    }
    if (limits.memoryBytes() != null && !sets(argv, RAM)) {
      flags.add(RAM + limits.memoryBytes());
    }
    if (flags.isEmpty()) {
      return argv;
    }
    List<String> out = new ArrayList<>(argv.size() + flags.size());
    out.add(program);
    out.addAll(flags);
    out.addAll(argv.subList(1, argv.size()));
    return List.copyOf(out);
  }

  /**
   * The CPUs a JVM may count: the quota rounded up (as the JDK rounds it), at most the cpuset's, at
   * least one; null where no quota applies (the JDK counts its affinity right by itself).
   */
  static Integer cpus(EffectiveLimits limits) {
    if (limits.cpus() == null) {
      return null;
    }
    int cpus = (int) Math.ceil(limits.cpus());
    if (limits.cpusetCpus() != null) {
      cpus = Math.min(cpus, limits.cpusetCpus());
    }
    return Math.max(1, cpus);
  }

  private static boolean sets(List<String> argv, String flag) {
    return argv.stream().anyMatch(a -> a.startsWith(flag));
  }
}
