package org.lmctfy.internal.stats;

import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerStats.Pressure;
import org.lmctfy.spec.ContainerStats.Stall;

/** Parses a PSI file: {@code some avg10=0.00 avg60=0.00 avg300=0.00 total=0} (total in µs). */
final class Psi {
  private Psi() {}

  /** The pressure file {@code file}, or null if absent or holding neither line. */
  static Pressure read(StatFiles f, Hierarchy h, String file) {
    if (!f.load(h, file)) {
      return null;
    }
    Stall some = null;
    Stall full = null;
    f.pos = 0;
    while (f.pos < f.length()) {
      int word = f.pos;
      int end = f.wordEnd();
      boolean isSome = f.matches(SOME, word, end);
      boolean isFull = !isSome && f.matches(FULL, word, end);
      if (isSome || isFull) {
        f.pos = end;
        double avg10 = f.skipPast((byte) '=') ? f.parseDecimal() : 0;
        double avg60 = f.skipPast((byte) '=') ? f.parseDecimal() : 0;
        double avg300 = f.skipPast((byte) '=') ? f.parseDecimal() : 0;
        long totalUs = f.skipPast((byte) '=') ? f.parseLong() : 0;
        Stall stall = new Stall(avg10, avg60, avg300, totalUs * 1000);
        if (isSome) {
          some = stall;
        } else {
          full = stall;
        }
      }
      f.nextLine();
    }
    return some == null && full == null ? null : new Pressure(some, full);
  }

  private static final byte[] SOME = StatFiles.keys("some")[0];
  private static final byte[] FULL = StatFiles.keys("full")[0];
}
