package org.lmctfy.internal.codec;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.InitSpec;

class TreeBinderTest {

  @Test
  void aJsonNullForARequiredFieldIsRequired() {
    assertThatThrownBy(
            () ->
                ContainerSpec.parse(
                    "{\"blockio\": {\"device_limits\": [{\"major\": null, \"minor\": 0, \"read_bps\": 1}]}}"))
        .isInstanceOf(LmctfyException.class)
        .hasMessage("blockio.device_limits[0].major: required");
  }

  @Test
  void anUnknownFieldAnywhereIsNamedBeforeAnyRecordIsBuilt() {
    assertThatThrownBy(() -> ContainerSpec.parse("cpu { limit: -5 } memory { swap: 1 }"))
        .hasMessageStartingWith("memory.swap: unknown field; known fields: high, limit, min");
  }

  @Test
  void aSingleValueIsAOneElementSetAndIndexesFillTheRecordsBrackets() {
    assertThatThrownBy(
            () ->
                InitSpec.parse(
                    "cgroup_mount { mount_path: '/x' hierarchy: cpu }"
                        + " cgroup_mount { mount_path: '/y' hierarchy: 'a b' }"))
        .hasMessage(
            "cgroup_mount[1].hierarchy: invalid value \"a b\": must be a controller name such as"
                + " \"cpu\" or CGROUP_CPU");
  }

  @Test
  void aMapValueOfTheWrongTypeIsNamedByItsKey() {
    assertThatThrownBy(() -> ContainerSpec.parse("unified { \"memory.swap.high\": 5 }"))
        .hasMessage("unified.memory.swap.high: invalid value 5: expected a string");
  }
}
