package org.lmctfy.internal.stats;

import org.lmctfy.spec.ContainerStats.Pressure;
import org.lmctfy.spec.ContainerStats.Stall;

/** Parses a PSI file: {@code some avg10=0.00 avg60=0.00 avg300=0.00 total=0} (total in µs). */
final class Psi {
  private Psi() {}

  static Pressure parse(String text) {
    if (text == null) {
      return null;
    }
    Stall some = null;
    Stall full = null;
    for (String line : text.split("\n")) {
      String[] parts = line.strip().split("\\s+");
      if (parts.length != 5) {
        continue;
      }
      Stall stall = new Stall(value(parts[1]), value(parts[2]), value(parts[3]),
          (long) value(parts[4]) * 1000);
      if (parts[0].equals("some")) {
        some = stall;
      } else if (parts[0].equals("full")) {
        full = stall;
      }
    }
    return some == null && full == null ? null : new Pressure(some, full);
  }

  private static double value(String kv) {
    return Double.parseDouble(kv.substring(kv.indexOf('=') + 1));
  }
}
