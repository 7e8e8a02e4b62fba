package org.lmctfy;

/**
 * A process {@link Container#run} started inside a container.
 *
 * @since 0.1
 */
public interface ContainerProcess {
  /** The process id. */
  long pid();
}
