package org.lmctfy.internal.notify;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.CgroupWatch;
import org.lmctfy.cgroupfs.CgroupWatcher;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.FlatKeyed;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.EventSpec.PressureTrigger;

/**
 * What one registration watches, and how it tells an event from a wake-up: the kernel mechanism for
 * each event spec on this machine's layout, the baseline read at registration, and the re-read
 * after each wake-up.
 */
abstract class Source {
  final CgroupFs fs;
  final Hierarchy h;
  final CgroupPath path;
  CgroupWatch watch;

  private Source(CgroupFs fs, Hierarchy h, CgroupPath path) {
    this.fs = fs;
    this.h = h;
    this.path = path;
  }

  /** Whether the watched cgroup is still there. */
  boolean exists() throws IOException {
    return fs.exists(h, path);
  }

  /**
   * After a wake-up: the detail of an event to deliver, or null if nothing the user asked for
   * happened.
   */
  abstract String check() throws IOException;

  /** Opens the watch on {@code watcher} and reads the baseline. */
  abstract void open(CgroupWatcher watcher) throws IOException;

  /** The optional capability of the CgroupFs that {@link #open} needs, or null for none. */
  CgroupFs.Capability needs() {
    return null;
  }

  /**
   * The source for {@code event} on {@code name}, its watch opened on {@code watcher}; the
   * LmctfyException says why not.
   */
  static Source open(
      ContainerCgroups cgroups, ContainerName name, EventSpec event, CgroupWatcher watcher) {
    CgroupFs fs = cgroups.fs();
    CgroupPath path = cgroups.path();
    Hierarchy v1Memory = null;
    Hierarchy unified = null;
    for (Hierarchy h : cgroups.managed()) {
      if (h.version() == CgroupVersion.V2) {
        unified = h;
      } else if (h.has("memory") && v1Memory == null) {
        v1Memory = h;
      }
    }
    Source source;
    try { // a failure below leaves no watch open
      if (event.oomEvent() != null || event.memoryThreshold() != null) {
        boolean v2Memory = unified != null && fs.hasFile(unified, path, "memory.events");
        if (v1Memory == null && !v2Memory) {
          throw new LmctfyException(
              ErrorCode.FAILED_PRECONDITION,
              "memory notifications for "
                  + name
                  + " need the memory controller: no v1 memory hierarchy is mounted and the"
                  + " container's unified cgroup has no memory.events (enable memory in its"
                  + " parent's cgroup.subtree_control)");
        }
        if (event.oomEvent() != null) {
          source = v1Memory != null ? new OomV1(fs, v1Memory, path) : new OomV2(fs, unified, path);
        } else {
          long t = event.memoryThreshold().usage();
          source =
              v1Memory != null
                  ? new ThresholdV1(fs, v1Memory, path, t)
                  : new ThresholdV2(fs, unified, path, t);
        }
      } else if (event.memoryHighEvent() != null) {
        if (unified == null || !fs.hasFile(unified, path, "memory.events")) {
          throw new LmctfyException(
              ErrorCode.FAILED_PRECONDITION,
              "memory_high notifications for "
                  + name
                  + " need the v2 memory controller (memory.high and memory.events): "
                  + (v1Memory != null
                      ? "memory is a v1 controller here, which has no memory.high"
                      : "the container's unified cgroup has no memory.events (enable memory in its"
                          + " parent's cgroup.subtree_control)"));
        }
        source = new HighV2(fs, unified, path);
      } else if (event.containerEmptyEvent() != null) {
        source =
            unified != null
                ? new EmptyV2(fs, unified, path)
                : new EmptyV1(fs, cgroups.anchor(), path);
      } else if (event.containerDestroyedEvent() != null) {
        source = new Destroyed(fs, cgroups.anchor(), path);
      } else {
        PressureTrigger p = event.pressure();
        String file = p.resource().name().toLowerCase(java.util.Locale.ROOT) + ".pressure";
        if (unified == null || !fs.hasFile(unified, path, file)) {
          throw new LmctfyException(
              ErrorCode.FAILED_PRECONDITION,
              "pressure notifications for "
                  + name
                  + " need a unified (v2) cgroup with "
                  + file
                  + (unified == null
                      ? "; no unified hierarchy is mounted"
                      : "; the kernel has no PSI for it (boot with psi=1)"));
        }
        source = new Pressure(fs, unified, path, file, p);
      }
      if (source.needs() != null && !fs.capabilities().contains(source.needs())) {
        throw new LmctfyException(
            ErrorCode.UNIMPLEMENTED,
            "register "
                + event.toJson()
                + " on "
                + name
                + ": this CgroupFs lacks CgroupFs.Capability."
                + source.needs());
      }
      openOrClose(source, watcher);
      return source;
    } catch (IOException e) {
      throw openFailure(name, event, e);
    }
  }

  /** Opens the watch and reads the baseline; a watch opened before a failed read is closed. */
  private static void openOrClose(Source source, CgroupWatcher watcher) throws IOException {
    try {
      source.open(watcher);
    } catch (IOException | RuntimeException e) {
      if (source.watch != null) {
        try {
          source.watch.close();
        } catch (IOException closing) {
          e.addSuppressed(closing);
        }
      }
      throw e;
    }
  }

  private static LmctfyException openFailure(ContainerName name, EventSpec event, IOException e) {
    String what = "register " + event.toJson() + " on " + name;
    if (e instanceof CgroupFsException) {
      Errno errno = ((CgroupFsException) e).errno();
      if (errno == Errno.ENOENT) {
        return Errors.of(what + ": the container does not exist", e);
      }
      if (errno == Errno.EINVAL) {
        String hint =
            event.pressure() != null
                ? " (without CAP_SYS_RESOURCE the kernel takes only windows that are a multiple of"
                    + " 2 s)"
                : "";
        return Errors.of(what + ": the kernel refused it" + hint, e);
      }
    }
    return Errors.of(what, e);
  }

  /** The value of {@code key} in a flat-keyed file ({@code "oom 3\noom_kill 1\n"}); 0 if absent. */
  static long field(String content, String key) {
    return FlatKeyed.parse(content, "a flat-keyed file").getOrDefault(key, 0L);
  }

  static long number(String content) {
    return Long.parseLong(content.strip());
  }

  /**
   * v1: the kernel signals an eventfd on each out-of-memory in the cgroup, as it begins: the
   * counters read then may not count its kill yet.
   */
  private static final class OomV1 extends Source {
    OomV1(CgroupFs fs, Hierarchy h, CgroupPath path) {
      super(fs, h, path);
    }

    @Override
    void open(CgroupWatcher watcher) throws IOException {
      watch = watcher.eventControl(h, path, "memory.oom_control", "");
    }

    @Override
    CgroupFs.Capability needs() {
      return CgroupFs.Capability.EVENT_CONTROL;
    }

    @Override
    String check() throws IOException {
      String s = fs.read(h, path, "memory.oom_control");
      return "under_oom " + field(s, "under_oom") + ", oom_kill " + field(s, "oom_kill");
    }
  }

  /** v2: memory.events changes (inotify); an event when its oom or oom_kill counter grew. */
  private static final class OomV2 extends Source {
    private long oom;
    private long kills;

    OomV2(CgroupFs fs, Hierarchy h, CgroupPath path) {
      super(fs, h, path);
    }

    @Override
    void open(CgroupWatcher watcher) throws IOException {
      watch = watcher.watch(h, path, Set.of("memory.events"));
      String s = fs.read(h, path, "memory.events");
      oom = field(s, "oom");
      kills = field(s, "oom_kill");
    }

    @Override
    String check() throws IOException {
      String s = fs.read(h, path, "memory.events");
      long o = field(s, "oom");
      long k = field(s, "oom_kill");
      if (o <= oom && k <= kills) {
        return null;
      }
      String detail =
          "oom " + o + " (+" + (o - oom) + "), oom_kill " + k + " (+" + (k - kills) + ")";
      oom = Math.max(o, oom);
      kills = Math.max(k, kills);
      return detail;
    }
  }

  /** v2: memory.events changes (inotify); an event when its high counter grew. */
  private static final class HighV2 extends Source {
    private long high;

    HighV2(CgroupFs fs, Hierarchy h, CgroupPath path) {
      super(fs, h, path);
    }

    @Override
    void open(CgroupWatcher watcher) throws IOException {
      watch = watcher.watch(h, path, Set.of("memory.events"));
      high = field(fs.read(h, path, "memory.events"), "high");
    }

    @Override
    String check() throws IOException {
      long now = field(fs.read(h, path, "memory.events"), "high");
      if (now <= high) {
        return null;
      }
      String detail = "high " + now + " (+" + (now - high) + ")";
      high = now;
      return detail;
    }
  }

  /** v1: the kernel signals an eventfd when usage crosses the threshold, either way. */
  private static final class ThresholdV1 extends Source {
    private final long threshold;

    ThresholdV1(CgroupFs fs, Hierarchy h, CgroupPath path, long threshold) {
      super(fs, h, path);
      this.threshold = threshold;
    }

    @Override
    void open(CgroupWatcher watcher) throws IOException {
      watch = watcher.eventControl(h, path, "memory.usage_in_bytes", Long.toString(threshold));
    }

    @Override
    CgroupFs.Capability needs() {
      return CgroupFs.Capability.EVENT_CONTROL;
    }

    @Override
    String check() throws IOException {
      return describe(number(fs.read(h, path, "memory.usage_in_bytes")), threshold);
    }
  }

  static String describe(long usage, long threshold) {
    return "usage " + usage + " bytes, " + (usage >= threshold ? "above " : "below ") + threshold;
  }

  /** v2: no kernel notification for usage; memory.current polled, an event on each crossing. */
  private static final class ThresholdV2 extends Source {
    private final long threshold;
    private boolean above;

    ThresholdV2(CgroupFs fs, Hierarchy h, CgroupPath path, long threshold) {
      super(fs, h, path);
      this.threshold = threshold;
    }

    @Override
    void open(CgroupWatcher watcher) throws IOException {
      watch = watcher.watch(h, path, Set.of("memory.current"));
      above = number(fs.read(h, path, "memory.current")) >= threshold;
    }

    @Override
    String check() throws IOException {
      long usage = number(fs.read(h, path, "memory.current"));
      if ((usage >= threshold) == above) {
        return null;
      }
      above = !above;
      return describe(usage, threshold);
    }
  }

  /** v2: cgroup.events changes (inotify); an event when populated goes from 1 to 0. */
  private static final class EmptyV2 extends Source {
    private boolean populated;

    EmptyV2(CgroupFs fs, Hierarchy h, CgroupPath path) {
      super(fs, h, path);
    }

    @Override
    void open(CgroupWatcher watcher) throws IOException {
      watch = watcher.watch(h, path, Set.of("cgroup.events"));
      populated = field(fs.read(h, path, "cgroup.events"), "populated") == 1;
    }

    @Override
    String check() throws IOException {
      boolean now = field(fs.read(h, path, "cgroup.events"), "populated") == 1;
      boolean emptied = populated && !now;
      populated = now;
      return emptied ? "populated 0" : null;
    }
  }

  /** v1 only: no populated flag; cgroup.procs of the cgroup and its descendants, polled. */
  private static final class EmptyV1 extends Source {
    private boolean populated;

    EmptyV1(CgroupFs fs, Hierarchy h, CgroupPath path) {
      super(fs, h, path);
    }

    @Override
    void open(CgroupWatcher watcher) throws IOException {
      watch = watcher.watch(h, path, Set.of("cgroup.procs"));
      populated = populated();
    }

    private boolean populated() throws IOException {
      Deque<CgroupPath> todo = new ArrayDeque<>();
      todo.add(path);
      while (!todo.isEmpty()) {
        CgroupPath p = todo.poll();
        if (!fs.read(h, p, "cgroup.procs").isBlank()) {
          return true;
        }
        for (String child : fs.children(h, p)) {
          todo.add(p.resolve(child));
        }
      }
      return false;
    }

    @Override
    String check() throws IOException {
      boolean now = populated();
      boolean emptied = populated && !now;
      populated = now;
      return emptied ? "no processes left" : null;
    }
  }

  /** Only the cgroup's removal, seen by a watch on nothing but the directory. */
  private static final class Destroyed extends Source {
    Destroyed(CgroupFs fs, Hierarchy h, CgroupPath path) {
      super(fs, h, path);
    }

    @Override
    void open(CgroupWatcher watcher) throws IOException {
      watch = watcher.watch(h, path, Set.of());
    }

    @Override
    String check() {
      return null;
    }
  }

  /** v2 PSI: the trigger written to the pressure file; an event for each POLLPRI. */
  private static final class Pressure extends Source {
    private final String file;
    private final PressureTrigger trigger;

    Pressure(CgroupFs fs, Hierarchy h, CgroupPath path, String file, PressureTrigger trigger) {
      super(fs, h, path);
      this.file = file;
      this.trigger = trigger;
    }

    @Override
    void open(CgroupWatcher watcher) throws IOException {
      watch = watcher.pressureTrigger(h, path, file, trigger.kernelTrigger());
    }

    @Override
    CgroupFs.Capability needs() {
      return CgroupFs.Capability.PRESSURE_TRIGGERS;
    }

    @Override
    String check() throws IOException {
      String kind = trigger.kind().name().toLowerCase(java.util.Locale.ROOT);
      for (String line : fs.read(h, path, file).split("\n")) {
        if (line.startsWith(kind + " ")) {
          return file + ": " + line.strip();
        }
      }
      return file + " fired";
    }
  }
}
