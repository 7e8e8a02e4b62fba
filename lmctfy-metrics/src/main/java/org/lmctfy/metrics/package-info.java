/**
 * What lmctfy's metrics bindings share: {@link org.lmctfy.metrics.ContainerSelection}, which
 * containers are read and how their series are tagged. The bindings are {@code
 * org.lmctfy.micrometer.ContainerMetrics} ({@code lmctfy-micrometer}) and {@code
 * org.lmctfy.opentelemetry.ContainerMetrics} ({@code lmctfy-opentelemetry}); docs/metrics.md has
 * their meters and instruments.
 */
@NullMarked
package org.lmctfy.metrics;

import org.jspecify.annotations.NullMarked;
