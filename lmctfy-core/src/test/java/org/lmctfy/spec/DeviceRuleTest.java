package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.lmctfy.spec.DeviceSpec.DeviceRule;
import org.lmctfy.spec.DeviceSpec.Permission;
import org.lmctfy.spec.DeviceSpec.Type;

class DeviceRuleTest {

  @Test
  void kernelRuleOfACharDevice() {
    assertThat(new DeviceRule(Permission.ALLOW, Type.CHAR, 1, 3, "rwm").kernelRule())
        .isEqualTo("c 1:3 rwm");
  }

  @Test
  void kernelRuleOfAllDevicesUsesWildcards() {
    assertThat(new DeviceRule(Permission.DENY, Type.ALL, -1, -1, "rwm").kernelRule())
        .isEqualTo("a *:* rwm");
  }

  @Test
  void kernelRuleWithAnyMinor() {
    assertThat(new DeviceRule(Permission.ALLOW, Type.BLOCK, 8, -1, "r").kernelRule())
        .isEqualTo("b 8:* r");
  }
}
