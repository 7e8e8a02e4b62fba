package org.lmctfy.internal.kernel;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.DeviceRule;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.libc.Libc;

/**
 * cgroup v2 device filters as runc and crun make them: a {@code BPF_PROG_TYPE_CGROUP_DEVICE}
 * program generated from the rules, attached to the cgroup with {@code BPF_F_ALLOW_MULTI} and
 * replaced with {@code BPF_F_REPLACE}, found again by its name ({@value #NAME}).
 *
 * <p>The program: r2 = device type, r3 = access bits, r4 = major, r5 = minor (from {@code struct
 * bpf_cgroup_dev_ctx}); one block per ALLOW rule that returns 1 when the type, the major and minor
 * (unless wildcards) match and the access bits requested are a subset of the rule's; 0 at the end.
 *
 * <p>The rules are recorded in the marker {@code devices.<id>} (the id: the first 8 bytes of the
 * SHA-1 of the instructions); the kernel tags a program with the first 8 bytes of the SHA-1 of its
 * instructions (6.1, 6.12) or of their SHA-256 (6.18, this project's host). A record is believed
 * only when the program generated from it has the tag of the program attached, so a tenant who
 * rewrites it cannot make {@code spec()} lie. The new record is written before the program is
 * attached and the old one removed after, so at any instant of a crash the attached program's
 * record exists.
 */
final class DeviceFilters {
  static final String NAME = "lmctfy_devices";
  private static final String RECORD_PREFIX = "devices.";
  private static final int PROG_LOAD = 5;
  private static final int PROG_ATTACH = 8;
  private static final int PROG_DETACH = 9;
  private static final int PROG_GET_FD_BY_ID = 13;
  private static final int OBJ_GET_INFO_BY_FD = 15;
  private static final int PROG_QUERY = 16;
  private static final int PROG_TYPE_CGROUP_DEVICE = 15;
  private static final int CGROUP_DEVICE = 6;
  private static final int F_ALLOW_MULTI = 2;
  private static final int F_REPLACE = 4;
  private static final int ATTR_SIZE = 128;
  private static final int DEV_BLOCK = 1;
  private static final int DEV_CHAR = 2;

  private DeviceFilters() {}

  /** An attached program of ours: its descriptor (the caller closes it) and tag. */
  private record Attached(int fd, String tag) {}

  static void set(CgroupFs fs, Hierarchy h, CgroupPath path, List<DeviceRule> rules)
      throws IOException {
    String dir = requireV2(h, path);
    String shown = rules == null ? "none" : text(rules).strip().replace("\n", ", ");
    int cgroup = open(dir, shown);
    try {
      Attached old = find(cgroup, dir, shown);
      try {
        if (rules == null) {
          if (old != null) {
            attr(
                Operation.BPF,
                dir,
                shown,
                PROG_DETACH,
                a -> {
                  a.setInt(0, cgroup);
                  a.setInt(4, old.fd);
                  a.setInt(8, CGROUP_DEVICE);
                });
          }
          removeRecords(fs, h, path, null);
          return;
        }
        byte[] program = program(rules);
        String tag = tags(program).get(0);
        fs.setMarker(h, path, RECORD_PREFIX + tag, text(rules));
        try {
          int prog = load(program, dir, shown);
          try {
            attr(
                Operation.BPF,
                dir,
                shown,
                PROG_ATTACH,
                a -> {
                  a.setInt(0, cgroup);
                  a.setInt(4, prog);
                  a.setInt(8, CGROUP_DEVICE);
                  a.setInt(12, F_ALLOW_MULTI | (old == null ? 0 : F_REPLACE));
                  a.setInt(16, old == null ? 0 : old.fd);
                });
          } finally {
            close(prog);
          }
        } catch (CgroupFsException refused) {
          if (old == null || !tags(program).contains(old.tag)) {
            try {
              fs.removeMarker(
                  h, path, RECORD_PREFIX + tag); // the filter is as it was: so is its record
            } catch (IOException e) {
              refused.addSuppressed(e);
            }
          }
          throw refused;
        }
        removeRecords(fs, h, path, tag);
      } finally {
        if (old != null) {
          close(old.fd);
        }
      }
    } finally {
      close(cgroup);
    }
  }

  static Optional<List<DeviceRule>> get(CgroupFs fs, Hierarchy h, CgroupPath path)
      throws IOException {
    String dir = requireV2(h, path);
    int cgroup = open(dir, null);
    Attached attached;
    try {
      attached = find(cgroup, dir, null);
    } finally {
      close(cgroup);
    }
    if (attached == null) {
      return Optional.empty();
    }
    close(attached.fd);
    for (String key : fs.markerKeys(h, path)) {
      if (!key.startsWith(RECORD_PREFIX)) {
        continue;
      }
      String recorded = fs.marker(h, path, key).orElse("");
      List<DeviceRule> rules;
      try {
        rules = parse(recorded);
      } catch (RuntimeException e) {
        continue; // not ours to read: not the record of the program attached
      }
      if (tags(program(rules)).contains(attached.tag)) {
        return Optional.of(rules);
      }
    }
    throw new CgroupFsException(
        Operation.BPF,
        dir,
        null,
        Errno.UNKNOWN,
        "the device program attached (tag "
            + attached.tag
            + ") has no record whose rules make that program: its rules are unknown (set them again "
            + "with an update)");
  }

  private static String requireV2(Hierarchy h, CgroupPath path) throws CgroupFsException {
    String dir = h.display(path, null);
    if (h.version() != CgroupVersion.V2) {
      throw new CgroupFsException(
          Operation.BPF,
          dir,
          null,
          Errno.EINVAL,
          "device filters are for cgroup v2 " + "cgroups; v1 has the devices controller");
    }
    return dir;
  }

  private static void removeRecords(CgroupFs fs, Hierarchy h, CgroupPath path, String keep)
      throws IOException {
    for (String key : fs.markerKeys(h, path)) {
      if (key.startsWith(RECORD_PREFIX)
          && !key.equals(keep == null ? null : RECORD_PREFIX + keep)) {
        fs.removeMarker(h, path, key);
      }
    }
  }

  /** The attached program named {@value #NAME}, or null; one query and one lookup per program. */
  private static Attached find(int cgroup, String dir, String shown) throws CgroupFsException {
    int max = 64;
    Memory ids = new Memory(4L * max);
    int count =
        (int)
            attr(
                Operation.BPF,
                dir,
                shown,
                PROG_QUERY,
                a -> {
                  a.setInt(0, cgroup);
                  a.setInt(4, CGROUP_DEVICE);
                  a.setLong(16, com.sun.jna.Pointer.nativeValue(ids));
                  a.setInt(24, max);
                },
                a -> a.getInt(24));
    for (int i = 0; i < Math.min(count, max); i++) {
      int id = ids.getInt(4L * i);
      int fd;
      try {
        fd = (int) attr(Operation.BPF, dir, shown, PROG_GET_FD_BY_ID, a -> a.setInt(0, id), null);
      } catch (CgroupFsException e) {
        if (e.errno() == Errno.ENOENT) {
          continue; // detached and freed since the query
        }
        throw e;
      }
      Memory info = new Memory(80);
      info.clear();
      try {
        attr(
            Operation.BPF,
            dir,
            shown,
            OBJ_GET_INFO_BY_FD,
            a -> {
              a.setInt(0, fd);
              a.setInt(4, 80);
              a.setLong(8, com.sun.jna.Pointer.nativeValue(info));
            });
      } catch (CgroupFsException e) {
        close(fd);
        throw e;
      }
      String name = info.getString(64, StandardCharsets.US_ASCII.name());
      if (name.equals(NAME)) {
        return new Attached(fd, HexFormat.of().formatHex(info.getByteArray(8, 8)));
      }
      close(fd);
    }
    return null;
  }

  private static int load(byte[] program, String dir, String shown) throws CgroupFsException {
    Memory insns = new Memory(program.length);
    insns.write(0, program, 0, program.length);
    Memory license = new Memory(8);
    license.clear();
    license.setString(0, "GPL", StandardCharsets.US_ASCII.name());
    Fill fill =
        a -> {
          a.setInt(0, PROG_TYPE_CGROUP_DEVICE);
          a.setInt(4, program.length / 8);
          a.setLong(8, com.sun.jna.Pointer.nativeValue(insns));
          a.setLong(16, com.sun.jna.Pointer.nativeValue(license));
          byte[] name = NAME.getBytes(StandardCharsets.US_ASCII);
          a.write(48, name, 0, name.length);
        };
    try {
      return (int) attr(Operation.BPF, dir, shown, PROG_LOAD, fill, null);
    } catch (CgroupFsException refused) {
      if (refused.errno() != Errno.EINVAL && refused.errno() != Errno.EACCES) {
        throw refused;
      }
      Memory log = new Memory(16384); // the verifier says why: loaded again, with its log
      log.clear();
      try {
        close(
            (int)
                attr(
                    Operation.BPF,
                    dir,
                    shown,
                    PROG_LOAD,
                    a -> {
                      fill.into(a);
                      a.setInt(24, 1);
                      a.setInt(28, (int) log.size());
                      a.setLong(32, com.sun.jna.Pointer.nativeValue(log));
                    },
                    null));
      } catch (CgroupFsException again) {
        String why = log.getString(0, StandardCharsets.UTF_8.name()).strip().replace('\n', ';');
        throw new CgroupFsException(
            Operation.BPF,
            dir,
            shown,
            refused.errno(),
            "the kernel refused the device "
                + "program: "
                + (why.isEmpty() ? "no verifier log" : "verifier: " + why));
      }
      throw refused;
    }
  }

  // ---- the program

  /**
   * The instructions for {@code rules} (the devices allowed; everything else denied),
   * little-endian.
   */
  static byte[] program(List<DeviceRule> rules) {
    List<long[]> out = new ArrayList<>();
    out.add(insn(0x61, 2, 1, 0, 0)); // r2 = ctx->access_type
    out.add(insn(0x54, 2, 0, 0, 0xFFFF)); // w2 &= 0xffff: the type
    out.add(insn(0x61, 3, 1, 0, 0)); // r3 = ctx->access_type
    out.add(insn(0x74, 3, 0, 0, 16)); // w3 >>= 16: the access
    out.add(insn(0x61, 4, 1, 4, 0)); // r4 = ctx->major
    out.add(insn(0x61, 5, 1, 8, 0)); // r5 = ctx->minor
    for (DeviceRule r : rules) {
      List<long[]> block = new ArrayList<>();
      List<Integer> jumps = new ArrayList<>();
      jumps.add(block.size());
      block.add(
          insn(
              0x56,
              2,
              0,
              0,
              r.type() == DeviceRule.Type.BLOCK ? DEV_BLOCK : DEV_CHAR)); // if w2 != type
      int access = access(r.access());
      if (access != 7) {
        block.add(insn(0xbf, 1, 3, 0, 0)); // r1 = r3
        block.add(insn(0x54, 1, 0, 0, access)); // w1 &= allowed
        jumps.add(block.size());
        block.add(insn(0x5e, 1, 3, 0, 0)); // if w1 != w3: something requested is not allowed
      }
      if (r.major() >= 0) {
        jumps.add(block.size());
        block.add(insn(0x56, 4, 0, 0, (int) r.major()));
      }
      if (r.minor() >= 0) {
        jumps.add(block.size());
        block.add(insn(0x56, 5, 0, 0, (int) r.minor()));
      }
      block.add(insn(0xb7, 0, 0, 0, 1)); // r0 = 1
      block.add(insn(0x95, 0, 0, 0, 0)); // exit
      for (int j : jumps) {
        block.get(j)[2] = block.size() - 1 - j; // to the first instruction after the block
      }
      out.addAll(block);
    }
    out.add(insn(0xb7, 0, 0, 0, 0)); // r0 = 0
    out.add(insn(0x95, 0, 0, 0, 0)); // exit
    ByteBuffer b = ByteBuffer.allocate(out.size() * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (long[] i : out) {
      b.put((byte) i[0]).put((byte) (i[1] | i[3] << 4)).putShort((short) i[2]).putInt((int) i[4]);
    }
    return b.array();
  }

  /** {code, dst, off, src, imm}: the offset is filled in later for jumps. */
  private static long[] insn(int code, int dst, int src, int off, int imm) {
    return new long[] {code, dst, off, src, imm};
  }

  private static int access(String letters) {
    return (letters.indexOf('m') >= 0 ? 1 : 0)
        | (letters.indexOf('r') >= 0 ? 2 : 0)
        | (letters.indexOf('w') >= 0 ? 4 : 0);
  }

  /**
   * The tags the kernel may give {@code program}: SHA-1 (up to 6.x), SHA-256 (newer), 8 bytes each.
   */
  static List<String> tags(byte[] program) {
    List<String> out = new ArrayList<>(2);
    for (String algorithm : List.of("SHA-1", "SHA-256")) {
      try {
        byte[] digest = MessageDigest.getInstance(algorithm).digest(program);
        out.add(HexFormat.of().formatHex(digest, 0, 8));
      } catch (NoSuchAlgorithmException e) {
        throw new AssertionError("every JDK has " + algorithm, e);
      }
    }
    return out;
  }

  /** The record: the allowed devices as devices.list lines ({@code c 1:3 rwm}), one per line. */
  static String text(List<DeviceRule> rules) {
    StringBuilder b = new StringBuilder();
    for (DeviceRule r : rules) {
      b.append(r).append('\n');
    }
    return b.toString();
  }

  private static List<DeviceRule> parse(String text) {
    List<DeviceRule> rules = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isEmpty()) {
        rules.add(DeviceRule.parse(line));
      }
    }
    return List.copyOf(rules);
  }

  // ---- the system call

  private interface Fill {
    void into(Memory attr);
  }

  private interface Result {
    long of(Memory attr);
  }

  private static void attr(Operation op, String dir, String shown, int cmd, Fill fill)
      throws CgroupFsException {
    attr(op, dir, shown, cmd, fill, null);
  }

  /**
   * bpf(cmd) with a zeroed attr filled by {@code fill}; the return value, or {@code result} of the
   * attr.
   */
  private static long attr(
      Operation op, String dir, String shown, int cmd, Fill fill, Result result)
      throws CgroupFsException {
    long number = sysBpf();
    if (number < 0) {
      throw new CgroupFsException(
          op,
          dir,
          shown,
          Errno.ENOSYS,
          "no bpf system call number for " + System.getProperty("os.arch"));
    }
    Memory a = new Memory(ATTR_SIZE);
    a.clear();
    fill.into(a);
    try {
      long rc = Libc.syscall(number, cmd, a, ATTR_SIZE);
      return result == null ? rc : result.of(a);
    } catch (LastErrorException e) {
      Errno errno = Errno.of(e.getErrorCode());
      throw new CgroupFsException(
          op,
          dir,
          shown,
          errno,
          "bpf command "
              + cmd
              + (errno == Errno.UNKNOWN ? ", errno " + e.getErrorCode() : "")
              + (errno == Errno.EPERM ? " (device filters need CAP_BPF or CAP_SYS_ADMIN)" : ""));
    }
  }

  private static long sysBpf() {
    if (Platform.isIntel() && Platform.is64Bit()) {
      return 321;
    }
    if (Platform.isARM() && Platform.is64Bit()) {
      return 280;
    }
    return -1;
  }

  private static int open(String dir, String shown) throws CgroupFsException {
    try {
      return Libc.open(dir, Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_CLOEXEC);
    } catch (LastErrorException e) {
      throw new CgroupFsException(
          Operation.BPF, dir, shown, Errno.of(e.getErrorCode()), "open the cgroup");
    }
  }

  private static void close(int fd) {
    try {
      Libc.close(fd);
    } catch (LastErrorException e) {
      // a descriptor of ours that close(2) refuses is gone all the same (EBADF/EINTR): nothing to
      // undo
    }
  }
}
