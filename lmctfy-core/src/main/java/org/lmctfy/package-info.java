/**
 * lmctfy for Java: create, limit, run, measure, freeze and destroy Linux containers (cgroups).
 * Start at {@link org.lmctfy.ContainerApi}.
 */
package org.lmctfy;
