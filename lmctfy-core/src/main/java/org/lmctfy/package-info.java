/**
 * lmctfy for Java: create, limit, run, measure, freeze and destroy Linux containers (cgroups).
 * Start at {@link org.lmctfy.ContainerApi}.
 */
@NullMarked
package org.lmctfy;

import org.jspecify.annotations.NullMarked;
