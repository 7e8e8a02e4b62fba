package org.lmctfy.internal.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.spec.RunSpec;

/**
 * The codec's own binder ({@link TreeBinder}, kept for the CLI's start-up) and a user's plain
 * {@code ObjectMapper} (module-info opens {@code org.lmctfy.spec} to Jackson for it) bind the same
 * JSON into the same records, and read each other's output. The table sets every field of every
 * spec section at least once ({@link #theTableSetsEveryFieldOfEverySection} fails when a new one is
 * missing). What only the codec reads (sizes such as {@code "256M"}, a CPU mask as a bitmask
 * message, a single value for a list) a plain mapper refuses rather than reads differently.
 */
class PlainObjectMapperTest {
  private static final ObjectMapper PLAIN = new ObjectMapper();

  static Stream<Arguments> specs() {
    return Stream.of(
        row(ContainerSpec.class, "{\"owner\": 1000, \"owner_group\": 100, \"children_limit\": 8}"),
        row(
            ContainerSpec.class,
            "{\"cpu\": {\"limit\": 1024, \"max_limit\": 500, \"mask\": \"0-1\", \"memory_nodes\":"
                + " \"0\", \"scheduling_latency\": \"PRIORITY\", \"period_us\": 100000,"
                + " \"burst_us\": 1000, \"idle\": false, \"uclamp_min\": 20.5, \"uclamp_max\": 80,"
                + " \"partition\": \"MEMBER\"}}"),
        row(
            ContainerSpec.class,
            "{\"memory\": {\"limit\": 268435456, \"swap_limit\": 536870912,"
                + " \"reservation\": 1048576, \"high\": 134217728, \"oom_kill_disable\": false,"
                + " \"oom_group\": true, \"swappiness\": 10, \"min\": 4096, \"zswap_limit\": -1}}"),
        row(ContainerSpec.class, "{\"pids\": {\"limit\": 64}}"),
        row(
            ContainerSpec.class,
            "{\"blockio\": {\"weight\": 100,"
                + " \"device_limits\": [{\"major\": 8, \"minor\": 0, \"read_bps\": 1048576,"
                + " \"write_bps\": 2097152, \"read_iops\": 100, \"write_iops\": 200}],"
                + " \"device_weights\": [{\"major\": 8, \"minor\": 16, \"weight\": 50}],"
                + " \"latency_targets\": [{\"major\": 8, \"minor\": 0, \"target_us\": 75000}]}}"),
        row(
            ContainerSpec.class,
            "{\"device\": {\"rules\": [{\"permission\": \"DENY\", \"type\": \"ALL\","
                + " \"major\": -1, \"minor\": -1, \"access\": \"rwm\"}, {\"permission\": \"ALLOW\","
                + " \"type\": \"CHAR\", \"major\": 1, \"minor\": 3, \"access\": \"rw\"}]}}"),
        row(
            ContainerSpec.class,
            "{\"hugetlb\": {\"limits\": [{\"page_size\": \"2MB\", \"limit\": 4194304,"
                + " \"reserved_limit\": 2097152}]}}"),
        row(
            ContainerSpec.class,
            "{\"network\": {\"classid\": 1048577,"
                + " \"priorities\": [{\"interface\": \"eth0\", \"priority\": 5}]}}"),
        row(ContainerSpec.class, "{\"monitoring\": {\"enable_perf_counters\": true}}"),
        row(
            ContainerSpec.class,
            "{\"misc\": {\"limits\": [{\"resource\": \"sev\", \"limit\": 2}]}}"),
        row(
            ContainerSpec.class,
            "{\"rdma\": {\"limits\": [{\"device\": \"mlx4_0\", \"hca_handle\": 2,"
                + " \"hca_object\": 2000}]}}"),
        row(ContainerSpec.class, "{\"unified\": {\"io.prio.class\": \"idle\"}}"),
        row(
            ContainerSpec.class,
            "{\"virtual_host\": {\"virtual_hostname\": \"box\", \"init\": {\"init_argv\":"
                + " [\"/sbin/init\", \"-q\"], \"run_spec\": {\"use_shell\": true}}, \"network\":"
                + " {\"interface\": \"veth0\", \"connection\": {\"veth_pair\": {\"outside\":"
                + " \"vo\", \"inside\": \"vi\"}, \"bridge\": {\"name\": \"br0\", \"type\":"
                + " \"ETH\"}}, \"virtual_ip\": {\"ip\": \"10.0.0.2\", \"netmask\":"
                + " \"255.255.255.0\", \"gateway\": \"10.0.0.1\", \"mtu\": 1500, \"ip_forward\":"
                + " false}}}, \"filesystem\": {\"rootfs\": \"/srv/box\", \"mounts\": {\"mount\":"
                + " [{\"source\": \"/data\", \"target\": \"/data\", \"read_only\": true,"
                + " \"private\": false}]}}}"),
        row(
            RunSpec.class,
            "{\"fd_policy\": \"DETACHED\", \"environment\": {\"A\": \"1\", \"B\": \"two\"},"
                + " \"working_directory\": \"/tmp\", \"stdin\": \"/dev/null\", \"stdout\":"
                + " \"/tmp/out\", \"stderr\": \"/tmp/err\", \"use_shell\": false, \"size_jvm\":"
                + " true}"),
        row(EventSpec.class, "{\"oom\": {}}"),
        row(EventSpec.class, "{\"memory_threshold\": {\"usage\": 1048576}}"),
        row(EventSpec.class, "{\"container_empty\": {}}"),
        row(EventSpec.class, "{\"container_destroyed\": {}}"),
        row(EventSpec.class, "{\"memory_high\": {}}"),
        row(
            EventSpec.class,
            "{\"pressure\": {\"resource\": \"MEMORY\", \"kind\": \"SOME\","
                + " \"threshold_us\": 150000, \"window_us\": 1000000}}"),
        row(
            InitSpec.class,
            "{\"cgroup_mount\": [{\"mount_path\": \"/sys/fs/cgroup/cpu\", \"hierarchy\": [\"cpu\","
                + " \"cpuacct\"]}], \"enable_controllers\": [\"memory\", \"pids\"],"
                + " \"processes_leaf\": \"init\"}"));
  }

  private static Arguments row(Class<?> type, String json) {
    return Arguments.of(type, json);
  }

  @ParameterizedTest
  @MethodSource("specs")
  void aPlainObjectMapperBindsTheSameRecordAsTheCodec(Class<?> type, String json) throws Exception {
    assertThat(PLAIN.readValue(json, type)).isEqualTo(SpecCodec.parse(json, type, "spec"));
  }

  @ParameterizedTest
  @MethodSource("specs")
  void eachReadsWhatTheOtherWrites(Class<?> type, String json) throws Exception {
    Object spec = SpecCodec.parse(json, type, "spec");

    assertThat(PLAIN.readValue(SpecCodec.toJson(spec), type)).isEqualTo(spec);
    assertThat(SpecCodec.parse(PLAIN.writeValueAsString(spec), type, "spec")).isEqualTo(spec);
  }

  @Test
  void theTableSetsEveryFieldOfEverySection() {
    Set<String> fields = new TreeSet<>();
    for (Class<?> root :
        Set.of(ContainerSpec.class, RunSpec.class, EventSpec.class, InitSpec.class)) {
      fieldsOf(root, fields);
    }
    Set<String> set = new TreeSet<>();
    specs()
        .forEach(
            row ->
                setFieldsOf(
                    SpecCodec.parse((String) row.get()[1], (Class<?>) row.get()[0], "spec"), set));

    assertThat(set).containsAll(fields);
  }

  @Test
  void aPlainObjectMapperRefusesWhatOnlyTheCodecReads() {
    for (String json :
        new String[] {
          "{\"memory\": {\"limit\": \"256M\"}}", // a size with a suffix
          "{\"cpu\": {\"mask\": {\"data\": [3]}}}", // lmctfy's bitmask form of a CPU mask
          "{\"device\": {\"rules\": {\"permission\": \"DENY\", \"type\": \"ALL\", \"major\": -1,"
              + " \"minor\": -1, \"access\": \"rwm\"}}}"
        }) { // one value for a list
      assertThat(SpecCodec.parse(json, ContainerSpec.class, "spec")).as(json).isNotNull();
      assertThatThrownBy(() -> PLAIN.readValue(json, ContainerSpec.class))
          .as(json)
          .isInstanceOf(JsonProcessingException.class);
    }
  }

  /** {@code Record.component} for every component of every record reachable from {@code type}. */
  private static void fieldsOf(Type type, Set<String> out) {
    if (type instanceof ParameterizedType p) {
      for (Type argument : p.getActualTypeArguments()) {
        fieldsOf(argument, out);
      }
    } else if (type instanceof Class<?> c && c.isRecord()) {
      for (RecordComponent component : c.getRecordComponents()) {
        if (out.add(c.getSimpleName() + "." + component.getName())) {
          fieldsOf(component.getGenericType(), out);
        }
      }
    }
  }

  /** {@code Record.component} for every component of {@code value} and below that is set. */
  private static void setFieldsOf(Object value, Set<String> out) {
    if (value instanceof Collection<?> elements) {
      elements.forEach(element -> setFieldsOf(element, out));
    } else if (value instanceof Map<?, ?> map) {
      map.values().forEach(element -> setFieldsOf(element, out));
    } else if (value != null && value.getClass().isRecord()) {
      for (RecordComponent component : value.getClass().getRecordComponents()) {
        Object field;
        try {
          field = component.getAccessor().invoke(value);
        } catch (ReflectiveOperationException e) {
          throw new AssertionError(e);
        }
        boolean empty =
            field == null
                || (field instanceof Collection<?> c && c.isEmpty())
                || (field instanceof Map<?, ?> m && m.isEmpty());
        if (!empty) {
          out.add(value.getClass().getSimpleName() + "." + component.getName());
          setFieldsOf(field, out);
        }
      }
    }
  }
}
