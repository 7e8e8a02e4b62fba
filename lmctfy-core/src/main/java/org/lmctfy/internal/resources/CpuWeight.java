package org.lmctfy.internal.resources;

/**
 * cpu.limit's conversions: {@code shares = max(2, limit * 1024 / 1000)}. v1 writes {@code
 * cpu.shares} and reads it back as {@code ceil(shares * 1000 / 1024)}. v2 maps shares onto {@code
 * cpu.weight} as current runc, crun and containerd's cgroups do: with {@code L = log2(shares)},
 * {@code weight = ceil(10^((L² + 125·L) / 612 − 7/34))}, a parabola in log space through shares 2 →
 * weight 1, 1024 → 100 and 262144 → 10000, so the v1 default (1024, one CPU's worth) lands on the
 * v2 default (100) and a container asked for one CPU weighs as much as a sibling that asked for
 * nothing. The mapping is many-to-one, so a weight reads back as the roundest limit (most trailing
 * decimal zeros) of those that map to it: every limit a person writes (500, 1000, 2500) reads back
 * unchanged.
 */
final class CpuWeight {
  static final long MAX_SHARES = 262_144;
  static final long DEFAULT_SHARES = 1024;
  static final long MAX_LIMIT = 256_000;

  private CpuWeight() {}

  static long shares(long limit) {
    return Math.max(2, limit * 1024 / 1000);
  }

  static long limitOfShares(long shares) {
    return (shares * 1000 + 1023) / 1024;
  }

  /** shares to cpu.weight. */
  static long weight(long shares) {
    if (shares <= 2) {
      return 1;
    }
    if (shares >= MAX_SHARES) {
      return 10_000;
    }
    double l = Math.log(shares) / Math.log(2);
    return (long) Math.ceil(Math.pow(10, (l * l + 125 * l) / 612.0 - 7.0 / 34.0));
  }

  /** The limit a cpu.weight reads back as: the roundest of the limits that map to it. */
  static long limitOfWeight(long weight) {
    long lo = firstLimit(weight);
    long hi = firstLimit(weight + 1) - 1;
    if (lo > hi) { // no limit maps to this weight (another tool wrote it): the nearest above
      return Math.min(lo, MAX_LIMIT);
    }
    for (long unit = 100_000; unit > 1; unit /= 10) {
      long round = (lo + unit - 1) / unit * unit;
      if (round <= hi) {
        return round;
      }
    }
    return lo;
  }

  /** The smallest limit whose weight is at least {@code weight} (MAX_LIMIT + 1 if none). */
  private static long firstLimit(long weight) {
    long lo = 0;
    long hi = MAX_LIMIT + 1;
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      if (weight(shares(mid)) >= weight) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
