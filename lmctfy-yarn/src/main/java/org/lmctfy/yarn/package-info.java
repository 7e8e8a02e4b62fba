/**
 * lmctfy under Hadoop YARN: {@link org.lmctfy.yarn.LmctfyContainerExecutor}, a NodeManager executor
 * whose containers are lmctfy containers (limits from the allocation, destroyed with every process,
 * reacquired or cleaned after a NodeManager crash, OOM kills named in YARN's diagnostics), and
 * {@link org.lmctfy.yarn.LmctfyProcessTree}, the NodeManager's usage figures from the cgroups. The
 * {@code yarn-site.xml} settings are in docs/yarn.md.
 */
@NullMarked
package org.lmctfy.yarn;

import org.jspecify.annotations.NullMarked;
