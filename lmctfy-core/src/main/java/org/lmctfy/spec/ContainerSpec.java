package org.lmctfy.spec;

import static org.lmctfy.spec.Checks.atLeast;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.lmctfy.internal.codec.SpecCodec;

/**
 * What a container isolates and how: lmctfy's {@code ContainerSpec}. Each section is optional; an
 * absent ({@code null}) section means "not isolated": the container shares its parent's cgroup for
 * that resource, as in lmctfy.
 *
 * <p>Specs are read from lmctfy's protobuf text format or from JSON with the same field names
 * ({@link #parse}), and written back with {@link #toText()} and {@link #toJson()}; both round-trip.
 * Invalid values are rejected when the record is built, whether from Java or from text, with an
 * {@link org.lmctfy.LmctfyException} of code {@link org.lmctfy.ErrorCode#INVALID_ARGUMENT} naming
 * the field by its dotted path ({@code memory.swap_limit}) and the bad value.
 *
 * <pre>{@code
 * ContainerSpec spec = ContainerSpec.parse("cpu { limit: 1000 } memory { limit: -1 }");
 * ContainerSpec same = ContainerSpec.builder()
 *     .cpu(CpuSpec.ofLimit(1000))
 *     .memory(MemorySpec.ofLimit(-1))
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe. Not for process-level settings: see {@link RunSpec}.
 *
 * @param owner {@code owner}: uid that owns the container's cgroups, {@code >= 0}; absent = the
 *     caller (no chown)
 * @param ownerGroup {@code owner_group}: gid that owns the container's cgroups, {@code >= 0}
 * @param childrenLimit {@code children_limit}: most subcontainers allowed, {@code >= 0}
 * @param cpu {@code cpu}: CPU shares, cap, mask and latency class
 * @param memory {@code memory}: memory limits
 * @param pids {@code pids}: process-count limit
 * @param blockio {@code blockio}: block I/O weight and throttles
 * @param device {@code device}: device access rules
 * @param hugetlb {@code hugetlb}: huge page limits
 * @param network {@code network}: net_cls class id and net_prio priorities
 * @param monitoring {@code monitoring}: presence gives the container a perf_event cgroup
 * @param misc {@code misc}: limits of the v2 misc controller's resources
 * @param rdma {@code rdma}: limits of RDMA resources per device
 * @param unified {@code unified}: raw cgroup v2 interface files and the values to write to them,
 *     for a setting the typed sections do not model (as the OCI runtime spec's {@code unified}):
 *     names such as {@code "memory.swap.high"}; a file the typed sections model, a file of lmctfy's
 *     own ({@code cgroup.procs}, {@code cgroup.subtree_control}, ...) or a name with a {@code /} is
 *     refused. Written after every typed field, rolled back like them, read back by {@code spec()}
 *     as the kernel shows them; on v1 FAILED_PRECONDITION. Never null
 * @param virtualHost {@code virtual_host}: presence makes the container its own machine (pid, ipc
 *     and mount namespaces, an init, and uts and network ones as the section says); top-level
 *     containers only, fixed at create
 * @param filesystem {@code filesystem}: the virtual host's root and mounts; only with {@code
 *     virtual_host}
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ContainerSpec(
    @JsonProperty("owner") @Nullable Long owner,
    @JsonProperty("owner_group") @Nullable Long ownerGroup,
    @JsonProperty("children_limit") @Nullable Long childrenLimit,
    @JsonProperty("cpu") @Nullable CpuSpec cpu,
    @JsonProperty("memory") @Nullable MemorySpec memory,
    @JsonProperty("pids") @Nullable PidsSpec pids,
    @JsonProperty("blockio") @Nullable BlockIoSpec blockio,
    @JsonProperty("device") @Nullable DeviceSpec device,
    @JsonProperty("hugetlb") @Nullable HugetlbSpec hugetlb,
    @JsonProperty("network") @Nullable NetworkSpec network,
    @JsonProperty("monitoring") @Nullable MonitoringSpec monitoring,
    @JsonProperty("misc") @Nullable MiscSpec misc,
    @JsonProperty("rdma") @Nullable RdmaSpec rdma,
    @JsonProperty("unified") @JsonInclude(JsonInclude.Include.NON_EMPTY)
        Map<String, String> unified,
    @JsonProperty("virtual_host") @Nullable VirtualHostSpec virtualHost,
    @JsonProperty("filesystem") @Nullable FilesystemSpec filesystem) {

  /** Validates the top-level numbers and the unified names; the sections validated themselves. */
  @JsonCreator
  public ContainerSpec {
    atLeast(owner, 0, "owner");
    atLeast(ownerGroup, 0, "owner_group");
    atLeast(childrenLimit, 0, "children_limit");
    unified = unified == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(unified));
    for (Map.Entry<String, String> file : unified.entrySet()) {
      UnifiedFiles.check(file.getKey(), file.getValue());
    }
    if (filesystem != null && virtualHost == null) {
      throw Checks.problem(
          "filesystem",
          "needs virtual_host: a root and mounts belong to a "
              + "virtual host's own mount namespace (as in lmctfy)");
    }
  }

  /** A spec that isolates nothing: every section absent. */
  public static ContainerSpec empty() {
    return builder().build();
  }

  /**
   * Reads a spec from lmctfy's text format ({@code cpu { limit: 1000 } memory { limit: -1 }}) or
   * from JSON (text starting with <code>{</code>). Blank text is the {@linkplain #empty() empty
   * spec}. Byte fields (memory's, hugetlb's limits, blockio's {@code read_bps} and {@code
   * write_bps}) also take sizes with a binary suffix: {@code memory { limit: 256M }}, JSON {@code
   * "256M"}; {@code K}/{@code Ki} is 1024, {@code M}/{@code Mi} 1024², up to {@code P}/{@code Pi},
   * as systemd and Docker read them. {@link #toText()} and {@link #toJson()} print bytes.
   *
   * @throws org.lmctfy.LmctfyException INVALID_ARGUMENT naming the field path, the bad value and,
   *     for syntax errors, the line:column
   */
  public static ContainerSpec parse(String text) {
    return SpecCodec.parse(text, ContainerSpec.class, "spec");
  }

  /** This spec as compact JSON with lmctfy's field names; absent sections are left out. */
  public String toJson() {
    return SpecCodec.toJson(this);
  }

  /** This spec in lmctfy's text format, one field a line, in a fixed order; empty if empty. */
  public String toText() {
    return SpecCodec.toText(this);
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this spec's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder()
        .owner(owner)
        .ownerGroup(ownerGroup)
        .childrenLimit(childrenLimit)
        .cpu(cpu)
        .memory(memory)
        .pids(pids)
        .blockio(blockio)
        .device(device)
        .hugetlb(hugetlb)
        .network(network)
        .monitoring(monitoring)
        .misc(misc)
        .rdma(rdma)
        .unified(unified)
        .virtualHost(virtualHost)
        .filesystem(filesystem);
  }

  /**
   * Builds a {@link ContainerSpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable Long owner;
    private @Nullable Long ownerGroup;
    private @Nullable Long childrenLimit;
    private @Nullable CpuSpec cpu;
    private @Nullable MemorySpec memory;
    private @Nullable PidsSpec pids;
    private @Nullable BlockIoSpec blockio;
    private @Nullable DeviceSpec device;
    private @Nullable HugetlbSpec hugetlb;
    private @Nullable NetworkSpec network;
    private @Nullable MonitoringSpec monitoring;
    private @Nullable MiscSpec misc;
    private @Nullable RdmaSpec rdma;
    private Map<String, String> unified = Map.of();
    private @Nullable VirtualHostSpec virtualHost;
    private @Nullable FilesystemSpec filesystem;

    private Builder() {}

    /** Sets {@code owner}. */
    public Builder owner(@Nullable Long owner) {
      this.owner = owner;
      return this;
    }

    /** Sets {@code owner_group}. */
    public Builder ownerGroup(@Nullable Long ownerGroup) {
      this.ownerGroup = ownerGroup;
      return this;
    }

    /** Sets {@code children_limit}. */
    public Builder childrenLimit(@Nullable Long childrenLimit) {
      this.childrenLimit = childrenLimit;
      return this;
    }

    /** Sets {@code cpu}. */
    public Builder cpu(@Nullable CpuSpec cpu) {
      this.cpu = cpu;
      return this;
    }

    /** Sets {@code memory}. */
    public Builder memory(@Nullable MemorySpec memory) {
      this.memory = memory;
      return this;
    }

    /** Sets {@code pids}. */
    public Builder pids(@Nullable PidsSpec pids) {
      this.pids = pids;
      return this;
    }

    /** Sets {@code blockio}. */
    public Builder blockio(@Nullable BlockIoSpec blockio) {
      this.blockio = blockio;
      return this;
    }

    /** Sets {@code device}. */
    public Builder device(@Nullable DeviceSpec device) {
      this.device = device;
      return this;
    }

    /** Sets {@code hugetlb}. */
    public Builder hugetlb(@Nullable HugetlbSpec hugetlb) {
      this.hugetlb = hugetlb;
      return this;
    }

    /** Sets {@code network}. */
    public Builder network(@Nullable NetworkSpec network) {
      this.network = network;
      return this;
    }

    /** Sets {@code monitoring}. */
    public Builder monitoring(@Nullable MonitoringSpec monitoring) {
      this.monitoring = monitoring;
      return this;
    }

    /** Sets {@code misc}. */
    public Builder misc(@Nullable MiscSpec misc) {
      this.misc = misc;
      return this;
    }

    /** Sets {@code rdma}. */
    public Builder rdma(@Nullable RdmaSpec rdma) {
      this.rdma = rdma;
      return this;
    }

    /** Sets {@code unified}. */
    public Builder unified(Map<String, String> unified) {
      this.unified = unified;
      return this;
    }

    /** Sets {@code virtual_host}. */
    public Builder virtualHost(@Nullable VirtualHostSpec virtualHost) {
      this.virtualHost = virtualHost;
      return this;
    }

    /** Sets {@code filesystem}. */
    public Builder filesystem(@Nullable FilesystemSpec filesystem) {
      this.filesystem = filesystem;
      return this;
    }

    /** The spec; validates it as the record's constructor does. */
    public ContainerSpec build() {
      return new ContainerSpec(
          owner,
          ownerGroup,
          childrenLimit,
          cpu,
          memory,
          pids,
          blockio,
          device,
          hugetlb,
          network,
          monitoring,
          misc,
          rdma,
          unified,
          virtualHost,
          filesystem);
    }
  }
}
