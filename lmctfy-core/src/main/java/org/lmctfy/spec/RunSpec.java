package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.lmctfy.internal.codec.SpecCodec;

/**
 * How {@link org.lmctfy.Container#run} starts a process: lmctfy's {@code RunSpec} plus the
 * environment, working directory and redirections a Java caller needs. Made with {@link #builder()}
 * (or {@link #inherit()}, {@link #detached()}, {@link #parse}) and changed with {@link
 * #toBuilder()}: the canonical constructor may gain components in a later version, as every spec
 * record's may, so code that calls it breaks where code that builds does not.
 *
 * <pre>{@code
 * job.run(List.of("/bin/sleep", "60"), RunSpec.detached());
 * RunSpec build = RunSpec.builder()
 *     .environment(Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8"))
 *     .workingDirectory("/srv/build")
 *     .stdout("/var/log/build.out")
 *     .build();
 * RunSpec logged = RunSpec.parse("fd_policy: DETACHED stdout: '/var/log/job.out'");
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param fdPolicy {@code fd_policy}: INHERIT (the default when absent) or DETACHED (new session,
 *     unredirected standard streams on {@code /dev/null})
 * @param environment {@code environment}: the whole environment of the process, names to values;
 *     {@code null} = inherit the caller's. Kept sorted by name
 * @param workingDirectory {@code working_directory}: the process's directory; {@code null} = the
 *     caller's
 * @param stdin {@code stdin}: file to read standard input from; {@code null} = per fd_policy
 * @param stdout {@code stdout}: file to append standard output to; {@code null} = per fd_policy
 * @param stderr {@code stderr}: file to append standard error to; {@code null} = per fd_policy
 * @param useShell {@code use_shell}: run the argv joined as one {@code /bin/sh -c} command
 * @param sizeJvm {@code size_jvm}: where {@code true}, argv[0] must be a java launcher (a file
 *     named {@code java}), which gets {@code -XX:ActiveProcessorCount} (the lowest CPU quota of the
 *     container and its ancestors, rounded up, at most its cpuset's CPUs) and {@code -XX:MaxRAM}
 *     (their lowest memory limit) right after it, each unless the argv sets it already. A JDK
 *     before 24 reads only its own cgroup's limits, so in a container nested in a limited one it
 *     sizes its threads and heap for the machine. Off by default: {@code run} starts the argv it is
 *     given, as lmctfy did, and a program (or a supervisor restarting it) sees the command line it
 *     was given. Since 0.2
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunSpec(
    @JsonProperty("fd_policy") FdPolicy fdPolicy,
    @JsonProperty("environment") @Nullable Map<String, String> environment,
    @JsonProperty("working_directory") @Nullable String workingDirectory,
    @JsonProperty("stdin") @Nullable String stdin,
    @JsonProperty("stdout") @Nullable String stdout,
    @JsonProperty("stderr") @Nullable String stderr,
    @JsonProperty("use_shell") @Nullable Boolean useShell,
    @JsonProperty("size_jvm") @Nullable Boolean sizeJvm) {

  /** What happens to the caller's file descriptors and session: lmctfy's {@code FdPolicy}. */
  public enum FdPolicy {
    /** The process keeps the caller's standard streams and session. */
    INHERIT,
    /** The process gets a new session; standard streams not redirected go to /dev/null. */
    DETACHED
  }

  /** Validates names and paths; copies the environment. */
  public RunSpec {
    fdPolicy = fdPolicy == null ? FdPolicy.INHERIT : fdPolicy;
    if (environment != null) {
      for (Map.Entry<String, String> e : environment.entrySet()) {
        String name = e.getKey();
        if (name == null || name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
          throw Checks.invalid("environment", name, "names must be non-empty, without '=' or NUL");
        }
        if (e.getValue() == null || e.getValue().indexOf('\0') >= 0) {
          throw Checks.invalid("environment." + name, e.getValue(), "must be a string without NUL");
        }
      }
      environment =
          java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(environment));
    }
    Checks.nonEmpty(workingDirectory, "working_directory");
    Checks.nonEmpty(stdin, "stdin");
    Checks.nonEmpty(stdout, "stdout");
    Checks.nonEmpty(stderr, "stderr");
  }

  /**
   * The run spec of 0.1's seven fields, {@code size_jvm} absent.
   *
   * @deprecated use {@link #builder()}: this constructor stays for code built against 0.1
   */
  @Deprecated(since = "0.2")
  public RunSpec(
      FdPolicy fdPolicy,
      @Nullable Map<String, String> environment,
      @Nullable String workingDirectory,
      @Nullable String stdin,
      @Nullable String stdout,
      @Nullable String stderr,
      @Nullable Boolean useShell) {
    this(fdPolicy, environment, workingDirectory, stdin, stdout, stderr, useShell, null);
  }

  /** Inherits everything from the caller: lmctfy's default. */
  public static RunSpec inherit() {
    return INHERIT;
  }

  /** A detached process: new session, standard streams on /dev/null. */
  public static RunSpec detached() {
    return DETACHED;
  }

  private static final RunSpec INHERIT = builder().build();
  private static final RunSpec DETACHED = builder().fdPolicy(FdPolicy.DETACHED).build();

  /** A builder with every field absent: {@link #inherit()} once built. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this run spec's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder()
        .fdPolicy(fdPolicy)
        .environment(environment)
        .workingDirectory(workingDirectory)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr)
        .useShell(useShell)
        .sizeJvm(sizeJvm);
  }

  /**
   * Reads a run spec from text format ({@code fd_policy: DETACHED environment { PATH: "/bin" }}) or
   * JSON. Blank text is {@link #inherit()}.
   *
   * @throws org.lmctfy.LmctfyException INVALID_ARGUMENT naming the field and the bad value
   */
  public static RunSpec parse(String text) {
    return SpecCodec.parse(text, RunSpec.class, "run spec");
  }

  /** This run spec as compact JSON. */
  public String toJson() {
    return SpecCodec.toJson(this);
  }

  /** This run spec in text format. */
  public String toText() {
    return SpecCodec.toText(this);
  }

  /**
   * Builds a {@link RunSpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable FdPolicy fdPolicy;
    private @Nullable Map<String, String> environment;
    private @Nullable String workingDirectory;
    private @Nullable String stdin;
    private @Nullable String stdout;
    private @Nullable String stderr;
    private @Nullable Boolean useShell;
    private @Nullable Boolean sizeJvm;

    private Builder() {}

    /** Sets {@code fd_policy}; {@code null} is INHERIT. */
    public Builder fdPolicy(@Nullable FdPolicy fdPolicy) {
      this.fdPolicy = fdPolicy;
      return this;
    }

    /** Sets {@code environment}, the whole environment; {@code null} inherits the caller's. */
    public Builder environment(@Nullable Map<String, String> environment) {
      this.environment = environment;
      return this;
    }

    /** Sets {@code working_directory}; {@code null} is the caller's. */
    public Builder workingDirectory(@Nullable String workingDirectory) {
      this.workingDirectory = workingDirectory;
      return this;
    }

    /** Sets {@code stdin}, a file to read standard input from. */
    public Builder stdin(@Nullable String stdin) {
      this.stdin = stdin;
      return this;
    }

    /** Sets {@code stdout}, a file to append standard output to. */
    public Builder stdout(@Nullable String stdout) {
      this.stdout = stdout;
      return this;
    }

    /** Sets {@code stderr}, a file to append standard error to. */
    public Builder stderr(@Nullable String stderr) {
      this.stderr = stderr;
      return this;
    }

    /** Sets {@code use_shell}: the argv joined as one {@code /bin/sh -c} command. */
    public Builder useShell(@Nullable Boolean useShell) {
      this.useShell = useShell;
      return this;
    }

    /**
     * Sets {@code size_jvm}: a java launcher gets its container's effective CPU and memory limits
     * as {@code -XX:ActiveProcessorCount} and {@code -XX:MaxRAM}.
     */
    public Builder sizeJvm(@Nullable Boolean sizeJvm) {
      this.sizeJvm = sizeJvm;
      return this;
    }

    /** The run spec; validates it as the record's constructor does. */
    public RunSpec build() {
      return new RunSpec(
          fdPolicy, environment, workingDirectory, stdin, stdout, stderr, useShell, sizeJvm);
    }
  }
}
