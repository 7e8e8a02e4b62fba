package org.lmctfy.examples.bench;

import java.util.Arrays;

/** Runs a measured action for a warm-up round and several rounds; median and spread per operation. */
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

  private Timer() {}

  static Result measure(int rounds, int ops, Round round) throws Exception {
    round.run(Math.max(1, ops / 2)); // warm-up
    double[] perOp = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long start = System.nanoTime();
      round.run(ops);
      perOp[r] = (System.nanoTime() - start) / 1000.0 / ops;
    }
    Arrays.sort(perOp);
    return new Result(perOp);
  }

  /** One timed run of {@code ops} operations: microseconds per operation. */
  static double once(int ops, Round round) throws Exception {
    long start = System.nanoTime();
    round.run(ops);
    return (System.nanoTime() - start) / 1000.0 / ops;
  }
}
