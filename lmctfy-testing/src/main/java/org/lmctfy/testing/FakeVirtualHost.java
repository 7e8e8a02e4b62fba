package org.lmctfy.testing;

import org.lmctfy.vhost.Blueprint;

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
 * @param blueprint what it was made of: the library's reading of the spec's {@code virtual_host}
 *     and {@code filesystem} sections
 * @since 0.1
 */
public record FakeVirtualHost(long initPid, Blueprint blueprint) {}
