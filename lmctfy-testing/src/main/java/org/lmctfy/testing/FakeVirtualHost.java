package org.lmctfy.testing;

import org.lmctfy.spec.FilesystemSpec;
import org.lmctfy.spec.VirtualHostSpec;

/**
 * A virtual host of a {@link FakeCgroupFs}: its init's pid and the spec it was made from, as {@link
 * FakeProcesses#virtualHostOf} finds it for a process.
 *
 * <pre>{@code
 * ContainerProcess p = vh.run(List.of("/bin/hostname"), RunSpec.inherit());
 * assertThat(fs.processes().virtualHostOf(p.pid()).orElseThrow().initPid()).isEqualTo(vh.initPid());
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param initPid the init's pid
 * @param host the {@code virtual_host} section it was made from
 * @param filesystem the {@code filesystem} section, or null
 * @since 0.1
 */
public record FakeVirtualHost(long initPid, VirtualHostSpec host, FilesystemSpec filesystem) {}
