/**
 * lmctfy for Java's Micrometer binding: {@link org.lmctfy.micrometer.ContainerMetrics}, a {@code
 * MeterBinder} of containers' CPU, memory, task and pressure figures, named after OpenTelemetry's
 * {@code container.*} semantic conventions. Micrometer is the application's own (provided).
 */
module org.lmctfy.micrometer {
  requires transitive org.lmctfy.metrics;
  requires transitive micrometer.core;

  exports org.lmctfy.micrometer;
}
