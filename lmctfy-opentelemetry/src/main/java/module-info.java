/**
 * lmctfy for Java's OpenTelemetry binding: {@link org.lmctfy.opentelemetry.ContainerMetrics},
 * containers' CPU, memory, task and pressure figures as instruments named after OpenTelemetry's
 * {@code container.*} semantic conventions. The OpenTelemetry API is the application's own
 * (provided).
 */
module org.lmctfy.opentelemetry {
  requires transitive org.lmctfy.metrics;
  requires transitive io.opentelemetry.api;
  requires io.opentelemetry.context;

  exports org.lmctfy.opentelemetry;
}
