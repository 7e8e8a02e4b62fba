/**
 * lmctfy for Java: create, limit, run, measure, freeze and destroy Linux containers (cgroups).
 * Start at {@link org.lmctfy.ContainerApi}.
 *
 * <p>No method here takes or returns {@code null} unless its type says {@code @Nullable}
 * (JSpecify). Every failure is an unchecked {@link org.lmctfy.LmctfyException} carrying an {@link
 * org.lmctfy.ErrorCode}; a method's {@code @throws} names the codes it gives for its own reasons.
 */
@NullMarked
package org.lmctfy;

import org.jspecify.annotations.NullMarked;
