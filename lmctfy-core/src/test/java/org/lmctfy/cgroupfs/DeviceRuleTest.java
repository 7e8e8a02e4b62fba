package org.lmctfy.cgroupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DeviceRuleTest {
  @Test
  void readsAndShowsTheDevicesListForm() {
    assertThat(DeviceRule.parse("c 1:3 rw"))
        .isEqualTo(new DeviceRule(DeviceRule.Type.CHAR, 1, 3, "rw"));
    assertThat(DeviceRule.parse("b *:* m"))
        .isEqualTo(new DeviceRule(DeviceRule.Type.BLOCK, -1, -1, "m"));
    assertThat(new DeviceRule(DeviceRule.Type.CHAR, 136, -1, "rwm")).hasToString("c 136:* rwm");
  }

  @Test
  void refusesWhatNoDeviceRuleIs() {
    assertThatThrownBy(() -> DeviceRule.parse("a *:* rwm"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DeviceRule(DeviceRule.Type.CHAR, -2, 0, "r"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DeviceRule(DeviceRule.Type.CHAR, 1, 3, "rr"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DeviceRule(DeviceRule.Type.CHAR, 1, 3, "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
