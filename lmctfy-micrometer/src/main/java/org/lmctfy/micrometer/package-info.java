/**
 * Containers as Micrometer meters: {@link org.lmctfy.micrometer.ContainerMetrics}, a {@code
 * MeterBinder} whose meters are named after OpenTelemetry's {@code container.*} semantic
 * conventions (see docs/metrics.md). Depend on {@code org.lmctfy:lmctfy-micrometer} beside your own
 * {@code micrometer-core}.
 */
@NullMarked
package org.lmctfy.micrometer;

import org.jspecify.annotations.NullMarked;
