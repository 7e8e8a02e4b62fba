/**
 * Not API: what {@code org.lmctfy.micrometer} and {@code org.lmctfy.opentelemetry} share. {@link
 * org.lmctfy.metrics.internal.Figure} is the one table of the figures' names, kinds, units and
 * sources; {@link org.lmctfy.metrics.internal.Collector} reads a selection's containers into a
 * {@link org.lmctfy.metrics.internal.Scrape}.
 */
@NullMarked
package org.lmctfy.metrics.internal;

import org.jspecify.annotations.NullMarked;
