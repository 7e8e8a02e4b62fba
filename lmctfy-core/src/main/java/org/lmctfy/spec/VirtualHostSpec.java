package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A container that is also its own machine: lmctfy's {@code virtual_host} section. Its presence
 * alone ({@code virtual_host {}}) gives the container its own pid, ipc and mount namespaces, a
 * {@code /proc} of its own (the host's processes are invisible inside) and an init as its pid 1,
 * which lives as long as the container: every process {@link org.lmctfy.Container#run run} in it
 * later joins those namespaces. {@code virtual_hostname} adds a uts namespace, {@code network} a
 * network namespace; a {@link FilesystemSpec} gives it its own root and mounts. When the caller is
 * not root, the virtual host also gets a user namespace in which the caller is root.
 *
 * <pre>{@code
 * ContainerSpec machine = ContainerSpec.parse(
 *     "virtual_host { virtual_hostname: 'vh' network {} } filesystem { rootfs: '/srv/vh' }");
 * ContainerSpec same = ContainerSpec.builder()
 *     .virtualHost(VirtualHostSpec.builder()
 *         .virtualHostname("vh")
 *         .network(VirtualHostSpec.Network.loopback())
 *         .build())
 *     .filesystem(FilesystemSpec.builder().rootfs("/srv/vh").build())
 *     .build();
 * }</pre>
 *
 * <p>Only a top-level container can be a virtual host, and {@code update} cannot change one (both
 * as in lmctfy). It is built on the distribution's tools: bubblewrap makes the namespaces, the
 * mounts and the init, util-linux {@code nsenter} joins them; see docs/virtual-hosts.md.
 *
 * <p>Immutable and thread-safe.
 *
 * @param virtualHostname {@code virtual_hostname}: the host name inside, in a uts namespace of its
 *     own; absent = the host's uts namespace. 1 to 64 letters, digits, {@code -} and {@code .}, as
 *     a host name
 * @param init {@code init}: the virtual host's pid 1; absent = lmctfy's default init (catatonit in
 *     pause mode, which reaps orphans and keeps the namespaces alive)
 * @param network {@code network}: presence gives the virtual host its own network namespace, in
 *     which only the loopback interface is up ({@code network {}}); absent = the host's network
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VirtualHostSpec(
    @JsonProperty("virtual_hostname") @Nullable String virtualHostname,
    @JsonProperty("init") @Nullable Init init,
    @JsonProperty("network") @Nullable Network network) {

  /** HOST_NAME_MAX. */
  private static final int HOST_NAME_MAX = 64;

  /** Validates the host name. */
  public VirtualHostSpec {
    if (virtualHostname != null
        && (virtualHostname.isEmpty()
            || virtualHostname.length() > HOST_NAME_MAX
            || !virtualHostname.chars().allMatch(VirtualHostSpec::isHostNameCharacter))) {
      throw Checks.invalid(
          "virtual_host.virtual_hostname",
          virtualHostname,
          "must be a host name: 1 to 64 letters, digits, '-' and '.'");
    }
  }

  /** A host name's alphabet (RFC 1123): ASCII letters, digits, '-' and '.'. */
  private static boolean isHostNameCharacter(int c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '-'
        || c == '.';
  }

  /**
   * {@code virtual_host {}}: pid, ipc and mount namespaces with the default init.
   *
   * @return the section with every field absent
   */
  public static VirtualHostSpec empty() {
    return new VirtualHostSpec(null, null, null);
  }

  /**
   * The virtual host's pid 1: lmctfy's {@code init}. It runs inside the virtual host as long as the
   * container, and as pid 1 it must reap the orphans that are reparented to it and must not exit:
   * when it ends, the kernel ends every process of the virtual host.
   *
   * @param initArgv {@code init_argv}: the init's command line inside the virtual host (the program
   *     found on the PATH of its environment, in its root); empty = lmctfy's default init. Never
   *     null
   * @param runSpec {@code run_spec}: how the init runs: its environment, working directory inside
   *     (default {@code /}) and the host files its standard streams go to (default: none; the
   *     init's standard error is a pipe to the creating process until {@code create} returns, then
   *     closed, so an init that writes there later should be given a file or ignore SIGPIPE). The
   *     init always gets a new session; {@code fd_policy} is accepted as in any run spec
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Init(
      @JsonProperty("init_argv") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> initArgv,
      @JsonProperty("run_spec") @Nullable RunSpec runSpec) {

    /** Copies the command line and checks its arguments. */
    public Init {
      initArgv = initArgv == null ? List.of() : List.copyOf(initArgv);
      for (String a : initArgv) {
        if (a.indexOf('\0') >= 0) {
          throw Checks.invalid("virtual_host.init.init_argv", a, "must not contain NUL");
        }
      }
      if (!initArgv.isEmpty() && initArgv.get(0).isEmpty()) {
        throw Checks.invalid("virtual_host.init.init_argv[0]", "", "must name the init's program");
      }
    }
  }

  /**
   * The virtual host's network: lmctfy's {@code containers.Network}. Present and empty ({@code
   * network {}}): a network namespace of its own with only {@code lo}, up. lmctfy's ways to connect
   * it (a host interface moved in, a veth pair to a bridge, an address) are read and written back,
   * but {@code create} refuses them (UNIMPLEMENTED), naming the field.
   *
   * @param iface {@code interface}: a host interface to move into the virtual host
   * @param connection {@code connection}: a veth pair and the bridge its outside end joins
   * @param virtualIp {@code virtual_ip}: the address of the inside interface
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Network(
      @JsonProperty("interface") @Nullable String iface,
      @JsonProperty("connection") @Nullable Connection connection,
      @JsonProperty("virtual_ip") @Nullable VirtualIp virtualIp) {

    /**
     * A network namespace with only the loopback interface: {@code network {}}.
     *
     * @return the section with every field absent
     */
    public static Network loopback() {
      return new Network(null, null, null);
    }

    /**
     * Whether only loopback is asked for (every field absent).
     *
     * @return whether the section is empty
     */
    @com.fasterxml.jackson.annotation.JsonIgnore // derived: not a field of the spec's JSON
    public boolean isLoopbackOnly() {
      return iface == null && connection == null && virtualIp == null;
    }
  }

  /**
   * lmctfy's {@code connection}: a veth pair whose outside end joins a bridge.
   *
   * @param vethPair {@code veth_pair}: the names of the pair's two ends
   * @param bridge {@code bridge}: the bridge the outside end joins
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Connection(
      @JsonProperty("veth_pair") @Nullable VethPair vethPair,
      @JsonProperty("bridge") @Nullable Bridge bridge) {}

  /**
   * lmctfy's {@code veth_pair}.
   *
   * @param outside {@code outside}: the host's end
   * @param inside {@code inside}: the virtual host's end
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record VethPair(
      @JsonProperty("outside") @Nullable String outside,
      @JsonProperty("inside") @Nullable String inside) {}

  /**
   * lmctfy's {@code bridge}.
   *
   * @param name {@code name}: the bridge's interface name
   * @param type {@code type}: a Linux bridge or an Open vSwitch one
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Bridge(
      @JsonProperty("name") @Nullable String name,
      @JsonProperty("type") @Nullable BridgeType type) {}

  /** lmctfy's bridge types. */
  public enum BridgeType {
    /** A Linux bridge. */
    ETH,
    /** An Open vSwitch bridge. */
    OVS
  }

  /**
   * lmctfy's {@code virtual_ip}: the inside interface's address.
   *
   * @param ip {@code ip}: the address
   * @param netmask {@code netmask}: the net mask
   * @param gateway {@code gateway}: the default route's gateway
   * @param mtu {@code mtu}: the interface's MTU
   * @param ipForward {@code ip_forward}: whether the virtual host forwards packets
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record VirtualIp(
      @JsonProperty("ip") @Nullable String ip,
      @JsonProperty("netmask") @Nullable String netmask,
      @JsonProperty("gateway") @Nullable String gateway,
      @JsonProperty("mtu") @Nullable Long mtu,
      @JsonProperty("ip_forward") @Nullable Boolean ipForward) {}

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder().virtualHostname(virtualHostname).init(init).network(network);
  }

  /**
   * Builds a {@link VirtualHostSpec}: a setter given {@code null} clears its field, {@link
   * #build()} validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable String virtualHostname;
    private @Nullable Init init;
    private @Nullable Network network;

    private Builder() {}

    /** Sets {@code virtual_hostname}. */
    public Builder virtualHostname(@Nullable String virtualHostname) {
      this.virtualHostname = virtualHostname;
      return this;
    }

    /** Sets {@code init}. */
    public Builder init(@Nullable Init init) {
      this.init = init;
      return this;
    }

    /** Sets {@code network}. */
    public Builder network(@Nullable Network network) {
      this.network = network;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public VirtualHostSpec build() {
      return new VirtualHostSpec(virtualHostname, init, network);
    }
  }
}
