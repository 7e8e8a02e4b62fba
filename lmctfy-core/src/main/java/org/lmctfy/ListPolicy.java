package org.lmctfy;

/** Whether a listing covers only the container itself or its whole subtree. @since 0.1 */
public enum ListPolicy {
  /** The container itself. */
  SELF,
  /** The container and every container below it. */
  RECURSIVE
}
