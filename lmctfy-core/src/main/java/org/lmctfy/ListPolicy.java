package org.lmctfy;

/** Whether a listing covers only the container itself or its whole subtree. @since 0.1 */
public enum ListPolicy {
  SELF,
  RECURSIVE
}
