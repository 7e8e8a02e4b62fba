package org.lmctfy;

/** How {@link Container#update} treats fields the new spec leaves out. @since 0.1 */
public enum UpdatePolicy {
  /** Change only the fields the spec gives. */
  DIFF,
  /** Make the container match the spec exactly; omitted fields go back to their defaults. */
  REPLACE
}
