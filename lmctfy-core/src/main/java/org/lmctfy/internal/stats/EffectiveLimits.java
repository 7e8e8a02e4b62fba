package org.lmctfy.internal.stats;

import org.jspecify.annotations.Nullable;

/**
 * What a program in a container may use, counting the container's ancestors as the kernel does.
 *
 * @param cpus the lowest CPU quota of the container and its ancestors in CPUs ({@code cpu.max}, or
 *     {@code cpu.cfs_quota_us} over {@code cpu.cfs_period_us}); null where none sets one
 * @param cpusetCpus how many CPUs the container's cpuset lets it run on ({@code
 *     cpuset.cpus.effective}, {@code cpuset.effective_cpus}); null where no cpuset is managed
 * @param memoryBytes the lowest memory limit of the container and its ancestors (the {@code
 *     effective_limit} of its stats); null where none sets one
 */
public record EffectiveLimits(
    @Nullable Double cpus, @Nullable Integer cpusetCpus, @Nullable Long memoryBytes) {}
