/**
 * lmctfy for Java's metrics, what its bindings share: {@link
 * org.lmctfy.metrics.ContainerSelection}, which containers a binding reads and how their series are
 * told apart. Depend on {@code lmctfy-micrometer} or {@code lmctfy-opentelemetry}, which bring this
 * module; its internal package (the figures' table, the collection) is theirs alone.
 */
module org.lmctfy.metrics {
  requires transitive org.lmctfy;
  requires org.slf4j;

  exports org.lmctfy.metrics;
  exports org.lmctfy.metrics.internal to
      org.lmctfy.micrometer,
      org.lmctfy.opentelemetry;
}
