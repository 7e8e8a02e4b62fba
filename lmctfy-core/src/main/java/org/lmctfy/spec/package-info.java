/**
 * Immutable values: {@link org.lmctfy.spec.ContainerSpec} and its sections, {@link
 * org.lmctfy.spec.RunSpec}, {@link org.lmctfy.spec.EventSpec}, {@link org.lmctfy.spec.InitSpec} and
 * {@link org.lmctfy.spec.ContainerStats}. Field and JSON names are lmctfy's.
 *
 * <p>An absent ({@code null}) section of a spec means "not isolated": the container shares its
 * parent's cgroup for that resource; an absent field of a section leaves the kernel's value alone
 * (its default on create). Which components may be absent is in their types: {@code @Nullable} ones
 * may, every other is never null (a list or map given as {@code null} is read as empty).
 *
 * <p>ContainerSpec, each section and RunSpec are built with {@code builder()} and changed with
 * {@code toBuilder()}; or read from lmctfy's text format or JSON with {@code parse}. Their
 * canonical constructors may gain components in a later version (a new lmctfy field is a new
 * component), so code that calls them breaks where code that builds does not. Every record checks
 * its values when it is built, however it is built: a bad one is an {@link
 * org.lmctfy.LmctfyException} of code {@link org.lmctfy.ErrorCode#INVALID_ARGUMENT} naming the
 * field by its dotted path ({@code memory.swap_limit}) and the value.
 *
 * <pre>{@code
 * ContainerSpec spec = ContainerSpec.builder()
 *     .cpu(CpuSpec.builder().limit(1500L).maxLimit(1500L).build())
 *     .memory(MemorySpec.ofLimit(256L << 20))
 *     .build();
 * ContainerSpec more = spec.toBuilder().pids(PidsSpec.builder().limit(512L).build()).build();
 * }</pre>
 */
@NullMarked
package org.lmctfy.spec;

import org.jspecify.annotations.NullMarked;
