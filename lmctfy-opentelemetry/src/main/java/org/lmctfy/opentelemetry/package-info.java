/**
 * Containers as OpenTelemetry instruments: {@link org.lmctfy.opentelemetry.ContainerMetrics},
 * observed at each collection and named after OpenTelemetry's {@code container.*} semantic
 * conventions (see docs/metrics.md). Depend on {@code org.lmctfy:lmctfy-opentelemetry} beside your
 * own {@code opentelemetry-api}.
 */
@NullMarked
package org.lmctfy.opentelemetry;

import org.jspecify.annotations.NullMarked;
