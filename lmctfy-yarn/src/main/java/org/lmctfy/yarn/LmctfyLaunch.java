package org.lmctfy.yarn;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.hadoop.util.Shell;
import org.jspecify.annotations.Nullable;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.ResourceHandle;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One YARN container's launch, where {@code DefaultContainerExecutor} would fork its wrapper
 * script: makes the lmctfy container with the allocation's limits, runs the wrapper through {@link
 * Container#run} (so it is inside from its first instruction, its standard streams on files, never
 * on pipes to the NodeManager, which may die first), listens for OOMs in it, waits for it, and
 * reports an OOM kill. The container is destroyed by the executor's {@code postComplete}, once the
 * launch is over, or {@code reapContainer}.
 */
final class LmctfyLaunch implements Shell.CommandExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(LmctfyLaunch.class);

  /** How much of the wrapper's standard output and error is kept for YARN's diagnostics. */
  private static final int TAIL = 4096;

  /** What the launch knows of its YARN container. */
  record Target(String containerId, String name, ContainerSpec spec, long allocationMb) {}

  private final ContainerApi api;
  private final Target target;
  private final List<String> argv;
  private final RunSpec run;
  private final Consumer<String> onOom;
  private int exitCode = -1;

  /**
   * @param onOom called with the diagnostics when an OOM kill ended the wrapper with a non-zero
   *     status (the executor turns it into YARN's KILLED_EXCEEDED_PMEM)
   */
  LmctfyLaunch(
      ContainerApi api, Target target, List<String> argv, RunSpec run, Consumer<String> onOom) {
    this.api = api;
    this.target = target;
    this.argv = List.copyOf(argv);
    this.run = run;
    this.onOom = onOom;
  }

  @Override
  public void execute() throws IOException {
    OomReport oom;
    ContainerProcess process;
    // destroyed, with the wrapper if it started, on any way out before the launch is made
    try (ResourceHandle<Container> made = create()) {
      process = made.get().run(argv, run);
      // once the wrapper runs, off the path to its first instruction: a kill before this is in
      // the stats afterExit reads
      oom = OomReport.listen(made.get());
      made.commit();
    } catch (LmctfyException e) {
      throw new IOException("cannot start " + target.containerId() + ": " + e.getMessage(), e);
    }
    LOG.info(
        "{} runs in lmctfy container {} ({}): pid {}",
        target.containerId(),
        target.name(),
        target.spec().toText(),
        process.pid());
    try {
      exitCode = process.waitFor();
    } catch (InterruptedException e) {
      // the NodeManager is stopping: the container runs on, for a restart to reacquire
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while " + target.containerId() + " runs");
    }
    Optional<String> killed;
    try {
      killed = oom.afterExit(target.containerId(), target.allocationMb());
    } catch (LmctfyException e) {
      throw new IOException(
          "cannot read the memory stats of " + target.name() + ": " + e.getMessage(), e);
    }
    if (killed.isPresent()) {
      LOG.warn("{} (exit code {})", killed.get(), exitCode);
      if (exitCode != 0) {
        onOom.accept(killed.get());
      }
    }
    if (exitCode != 0) {
      throw new Shell.ExitCodeException(exitCode, tail(run.stderr()));
    }
  }

  /**
   * Makes the container; one left by an earlier attempt of the same YARN container (a relaunch
   * after a restart, which has no postComplete) is destroyed first: it is this container's own.
   */
  private ResourceHandle<Container> create() throws IOException {
    try {
      try {
        return api.createHandle(target.name(), target.spec());
      } catch (LmctfyException e) {
        if (e.code() != ErrorCode.ALREADY_EXISTS || !api.exists(target.name())) {
          throw e;
        }
        LOG.info("{}: destroying the lmctfy container of its earlier attempt", target.name());
        api.destroy(target.name());
        return api.createHandle(target.name(), target.spec());
      }
    } catch (LmctfyException e) {
      throw new IOException(
          "cannot make lmctfy container " + target.name() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public int getExitCode() {
    return exitCode;
  }

  @Override
  public String getOutput() throws IOException {
    return tail(run.stdout());
  }

  @Override
  public void close() {}

  /** The last {@value #TAIL} bytes of {@code file}, or "" if there is none. */
  private static String tail(@Nullable String file) throws IOException {
    if (file == null || !new java.io.File(file).exists()) {
      return "";
    }
    try (RandomAccessFile f = new RandomAccessFile(file, "r")) {
      long start = Math.max(0, f.length() - TAIL);
      byte[] bytes = new byte[(int) (f.length() - start)];
      f.seek(start);
      f.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }
}
