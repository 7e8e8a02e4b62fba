package org.lmctfy;

/** How much {@link Container#stats} reads. @since 0.1 */
public enum StatsType {
  /** The figures a monitoring agent scrapes. */
  SUMMARY,
  /** Everything the kernel offers, including breakdowns and throttling. */
  FULL
}
