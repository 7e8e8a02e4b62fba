package org.lmctfy.internal.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.ContainerSpec;

class ResourceHandlerTest {
  /** Sections that are not resources: the virtual host keeper owns them. */
  private static final Set<String> NOT_RESOURCES = Set.of("virtual_host", "filesystem");

  private static List<String> handlerFields() {
    List<String> out = new ArrayList<>();
    ResourceHandler.all().forEach(h -> h.fields().forEach(f -> out.add(f.name())));
    return out;
  }

  private static List<String> refused() {
    List<String> out = new ArrayList<>();
    ResourceHandler.all().forEach(h -> out.addAll(h.refused()));
    return out;
  }

  /**
   * Each spec field as {@code section.field}, the way handlers name it; a map section as {@code
   * section.*}.
   */
  private static List<String> specFields() {
    List<String> out = new ArrayList<>();
    for (RecordComponent section : ContainerSpec.class.getRecordComponents()) {
      String name = snake(section.getName());
      if (NOT_RESOURCES.contains(name)) {
        continue;
      }
      if (section.getType().isRecord()) {
        for (RecordComponent field : section.getType().getRecordComponents()) {
          out.add(name + "." + snake(field.getName()));
        }
      } else if (java.util.Map.class.isAssignableFrom(section.getType())) {
        out.add(name + ".*");
      } else {
        out.add(name);
      }
    }
    return out;
  }

  private static String snake(String camel) {
    return camel.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
  }

  @Test
  void everySpecFieldHasAHandlerThatPlansOrRefusesIt() {
    List<String> known = new ArrayList<>(handlerFields());
    known.addAll(refused());

    assertThat(known).containsAll(specFields());
  }

  @Test
  void everyHandlerFieldIsASpecFieldOrASectionsPresence() {
    List<String> sections =
        List.of(ContainerSpec.class.getRecordComponents()).stream()
            .map(c -> snake(c.getName()))
            .toList();
    List<String> unknown = new ArrayList<>(handlerFields());
    unknown.addAll(refused());
    unknown.removeAll(specFields());
    unknown.removeAll(sections); // monitoring: the section's presence is the setting

    assertThat(unknown).isEmpty();
  }

  @Test
  void noFieldHasTwoHandlers() {
    assertThat(handlerFields()).doesNotHaveDuplicates();
  }

  @Test
  void aSpecWithEveryFieldGivesEveryHandlerField() {
    ContainerSpec spec =
        ContainerSpec.parse(
            """
        { "owner": 1, "owner_group": 2, "children_limit": 3,
          "cpu": {"limit": 1000, "max_limit": -1, "mask": "0-1", "memory_nodes": "0",
                  "scheduling_latency": "PREMIER", "period_us": 100000, "burst_us": 0, "idle": false,
                  "uclamp_min": 0, "uclamp_max": 100, "partition": "MEMBER"},
          "memory": {"limit": 100, "swap_limit": -1, "reservation": 50, "high": -1,
                     "oom_kill_disable": false, "oom_group": true, "swappiness": 0, "min": 0,
                     "zswap_limit": -1},
          "pids": {"limit": -1},
          "blockio": {"weight": 10, "device_limits": [{"major": 8, "minor": 0, "write_bps": 7}],
                      "device_weights": [{"major": 8, "minor": 0, "weight": 100}],
                      "latency_targets": [{"major": 8, "minor": 0, "target_us": 10}]},
          "device": {"rules": {"permission": "ALLOW", "type": "ALL", "major": -1, "minor": -1,
                               "access": "rwm"}},
          "hugetlb": {"limits": [{"page_size": "64KB", "limit": 0}]},
          "network": {"classid": 0, "priorities": [{"interface": "lo", "priority": 0}]},
          "monitoring": {},
          "misc": {"limits": [{"resource": "sev", "limit": 1}]},
          "rdma": {"limits": [{"device": "mlx4_0", "hca_handle": 1}]},
          "unified": {"memory.swap.high": "max"} }
        """);
    List<String> expected = new ArrayList<>(handlerFields());
    expected.remove("unified.*");
    expected.add("unified.memory.swap.high");

    assertThat(ResourcePlan.fields(spec)).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aV2FieldsControllerIsTheOneOfItsFiles() {
    for (ResourceHandler handler : ResourceHandler.all()) {
      for (ResourceHandler.Field f : handler.fields()) {
        for (String file : f.v2Files()) {
          String prefix = file.substring(0, file.indexOf('.'));
          assertThat(prefix.equals("cgroup") ? null : prefix)
              .as(f.name() + " writes " + file)
              .isEqualTo(f.controller());
        }
      }
    }
  }

  @Test
  void theUnifiedSectionRefusesEveryV2FileAFieldWritesNamingTheField() {
    for (ResourceHandler handler : ResourceHandler.all()) {
      for (ResourceHandler.Field f : handler.fields()) {
        for (String name :
            f.v2Files().stream().map(file -> file.replace("<size>", "2MB")).toList()) {
          assertThatThrownBy(() -> ContainerSpec.builder().unified(Map.of(name, "1")).build())
              .as(name)
              .isInstanceOf(LmctfyException.class)
              .hasMessageContaining(f.name());
        }
      }
    }
  }

  @Test
  void eachV2FieldNamesItsController() {
    assertThat(ResourcePlan.fields(ContainerSpec.parse("cpu { mask: \"0\" limit: 100 }")))
        .containsExactly("cpu.limit", "cpu.mask");
    ResourceHandler cpu = ResourceHandler.all().get(0);
    assertThat(cpu.controllerOf("cpu.mask")).isEqualTo("cpuset");
    assertThat(cpu.controllerOf("cpu.limit")).isEqualTo("cpu");
    assertThat(new UnifiedHandler().controllerOf("unified.memory.swap.high")).isEqualTo("memory");
  }
}
