package org.lmctfy.internal.resources;

import org.lmctfy.cgroupfs.Hierarchy;

/** One interface-file write of a plan, with the spec field it comes from (for messages). */
public record FileWrite(Hierarchy hierarchy, String file, String value, String field) {}
