package org.lmctfy.internal.resources;

/** What a plan is for, which decides what happens to fields a spec leaves out. */
public enum Mode {
  /** A fresh cgroup: absent fields keep the kernel's defaults (nothing is written for them). */
  CREATE,
  /** Only the fields given change. */
  DIFF,
  /** The container matches the spec exactly: absent fields go back to their defaults. */
  REPLACE
}
