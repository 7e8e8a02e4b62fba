package org.lmctfy.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lmctfy.yarn.DriversTest.conf;

import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.jupiter.api.Test;
import org.lmctfy.ApiOptions;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;

/** The lmctfy.yarn.* settings and the spec a YARN allocation becomes. */
class SettingsTest {
  @Test
  void byDefaultAContainerGetsItsAllocationAsMemoryLimitAndAWeightOf1024SharesAVcore() {
    Settings s = Settings.from(conf());
    assertThat(s.containerRoot()).isEqualTo("/hadoop-yarn");
    assertThat(s.apiOptions()).isEqualTo(ApiOptions.DEFAULTS);
    assertThat(s.nameOf("container_1_0001_01_000002"))
        .isEqualTo("/hadoop-yarn/container_1_0001_01_000002");
    assertThat(s.specFor(Resource.newInstance(512, 3), 2f, 8))
        .isEqualTo(ContainerSpec.parse("memory { limit: 512M } cpu { limit: 3000 }"));
  }

  @Test
  void strictModeCapsTheCpuAtTheContainersShareOfTheNodeAsYarnDoes() {
    Settings s = Settings.from(conf(Settings.CPU_STRICT, "true"));
    // 2 of 8 vcores on 2 CPUs: half a CPU
    assertThat(s.specFor(Resource.newInstance(64, 2), 2f, 8).cpu().maxLimit()).isEqualTo(500L);
    // every vcore: no cap, as YARN leaves it
    assertThat(s.specFor(Resource.newInstance(64, 8), 2f, 8).cpu().maxLimit()).isNull();
    // YARN's own switch is the default
    assertThat(Settings.from(conf(Settings.YARN_STRICT, "true")).strictCpu()).isTrue();
    assertThat(
            Settings.from(conf(Settings.YARN_STRICT, "true", Settings.CPU_STRICT, "false"))
                .strictCpu())
        .isFalse();
  }

  @Test
  void aSoftLimitAndAPidsLimitAreOptions() {
    Settings s = Settings.from(conf(Settings.SOFT_LIMIT_PERCENT, "90", Settings.PIDS_LIMIT, "256"));
    ContainerSpec spec = s.specFor(Resource.newInstance(1000, 1), 2f, 8);
    assertThat(spec.memory().reservation()).isEqualTo((1000L << 20) / 100 * 90);
    assertThat(spec.pids().limit()).isEqualTo(256L);
  }

  @Test
  void theDriverTheCgroupRootAndTheUnitAreApiOptions() {
    ApiOptions options =
        Settings.from(
                conf(
                    Settings.DRIVER, "cgroupfs",
                    Settings.CGROUP_ROOT, "/hadoop",
                    Settings.SYSTEMD_UNIT, "yarn-lmctfy.service",
                    Settings.CONTAINER_ROOT, "/yarn"))
            .apiOptions();
    assertThat(options.driver()).isEqualTo(ApiOptions.Driver.CGROUPFS);
    assertThat(options.root()).isEqualTo(CgroupPath.of("/hadoop"));
    assertThat(options.systemdUnit()).isEqualTo("yarn-lmctfy.service");
  }

  @Test
  void aWrongSettingIsInvalidArgumentNamingItAndItsValue() {
    String[][] wrong = {
      {Settings.DRIVER, "docker"},
      {Settings.CGROUP_ROOT, "hadoop"},
      {Settings.CONTAINER_ROOT, "/"},
      {Settings.SOFT_LIMIT_PERCENT, "0"},
      {Settings.SOFT_LIMIT_PERCENT, "ninety"},
      {Settings.PIDS_LIMIT, "0"},
    };
    for (String[] setting : wrong) {
      assertThatThrownBy(() -> Settings.from(conf(setting[0], setting[1])))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
          .hasMessageContaining(setting[0])
          .hasMessageContaining(setting[1]);
    }
  }
}
