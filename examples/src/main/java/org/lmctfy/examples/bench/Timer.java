package org.lmctfy.examples.bench;

import java.util.Arrays;

/**
 * Runs a measured action for three seconds of warm-up, then several rounds; median and spread per
 * operation.
 */
final class Timer {
  /** What one round does: {@code ops} operations, returning nothing. */
  interface Round {
    void run(int ops) throws Exception;
  }

  /** Per-operation times of the rounds, in microseconds, sorted. */
  record Result(double[] perOpMicros) {
    double median() {
      return perOpMicros[perOpMicros.length / 2];
    }

    String spread() {
      return String.format("%.1f-%.1f", perOpMicros[0], perOpMicros[perOpMicros.length - 1]);
    }
  }

  private static final long WARM_UP_NANOS = 3_000_000_000L;

  private Timer() {}

  static Result measure(int rounds, int ops, Round round) throws Exception {
    long warm = System.nanoTime() + WARM_UP_NANOS;
    do {
      round.run(ops);
    } while (System.nanoTime() < warm);
    double[] perOp = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long start = System.nanoTime();
      round.run(ops);
      perOp[r] = (System.nanoTime() - start) / 1000.0 / ops;
    }
    Arrays.sort(perOp);
    return new Result(perOp);
  }

  /**
   * What one self-timed round does: {@code ops} operations, returning the nanoseconds they took.
   */
  interface Timed {
    long nanos(int ops) throws Exception;
  }

  /** A floor and a contender, with the median of their per-round ratios. */
  record Comparison(Result floor, Result contender, double ratio) {}

  /**
   * A floor and a contender measured side by side: their rounds alternate, so that whatever else
   * the machine does at the time weighs on both alike; the ratio is the median of each round
   * pair's.
   */
  static Comparison compare(int rounds, int ops, Round floor, Round contender) throws Exception {
    return compareTimed(rounds, ops, timed(floor), timed(contender));
  }

  /**
   * As {@link #compare}, with rounds that time themselves (a floor program times its own loop, not
   * its start).
   */
  static Comparison compareTimed(int rounds, int ops, Timed floor, Timed contender)
      throws Exception {
    long warm = System.nanoTime() + WARM_UP_NANOS;
    // until the JIT has compiled both: the library has much more code to compile than the floor
    do {
      floor.nanos(ops);
      contender.nanos(ops);
    } while (System.nanoTime() < warm);
    double[] f = new double[rounds];
    double[] c = new double[rounds];
    double[] ratios = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      f[r] = floor.nanos(ops) / 1000.0 / ops;
      c[r] = contender.nanos(ops) / 1000.0 / ops;
      ratios[r] = c[r] / f[r];
    }
    Arrays.sort(f);
    Arrays.sort(c);
    Arrays.sort(ratios);
    return new Comparison(new Result(f), new Result(c), ratios[rounds / 2]);
  }

  private static Timed timed(Round round) {
    return ops -> {
      long start = System.nanoTime();
      round.run(ops);
      return System.nanoTime() - start;
    };
  }

  /** One timed run of {@code ops} operations: microseconds per operation. */
  static double once(int ops, Round round) throws Exception {
    long start = System.nanoTime();
    round.run(ops);
    return (System.nanoTime() - start) / 1000.0 / ops;
  }
}
