package org.lmctfy.testing;

/** Placeholder for the in-memory cgroupfs. */
public final class FakeCgroupFs {}
