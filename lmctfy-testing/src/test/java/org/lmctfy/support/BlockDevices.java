package org.lmctfy.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The machine's block devices, for kernel tests of io: the guests of .ci/kernel-vm have one, the
 * 256 MiB read-only virtio disk {@code vda} (254:0); loop and null_blk are modules their initramfs
 * does not load, so there are none of those.
 */
public final class BlockDevices {
  private BlockDevices() {}

  /** A disk: its name ({@code vda}), {@code MAJ:MIN} and device node. */
  public record Disk(String name, String majMin, Path node) {}

  /** The first whole disk in /sys/block (not a loop, ram, zram, md or device-mapper one). */
  public static Disk aDisk() throws IOException {
    try (Stream<Path> all = Files.list(Path.of("/sys/block"))) {
      List<Path> disks =
          all.filter(p -> !p.getFileName().toString().matches("(loop|ram|zram|md|dm-|sr|fd).*"))
              .sorted()
              .toList();
      for (Path d : disks) {
        Path dev = d.resolve("dev");
        if (Files.isReadable(dev)) {
          String name = d.getFileName().toString();
          return new Disk(name, Files.readString(dev).strip(), Path.of("/dev", name));
        }
      }
      throw new AssertionError(
          "this machine has no block device in /sys/block: the io tests need one "
              + "(the guests of .ci/kernel-vm have vda)");
    }
  }
}
