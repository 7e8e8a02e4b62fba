package org.lmctfy.spec;

/** Placeholder, replaced by the spec model. */
public record ContainerStats() {}
