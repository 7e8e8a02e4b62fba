package org.lmctfy.testing.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.DeviceRule;
import org.lmctfy.cgroupfs.DeviceRule.Type;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.contract.CgroupFsContractSupport;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * The kernel backend's cgroup v2 device filters (eBPF cgroup-device programs) on this machine's
 * unified hierarchy, which every layout has (this machine's hybrid one, the guests' v2 and
 * v2-bare): what a process in the cgroup may open, read-back, a forged record, replacement,
 * removal, and a parent's filter holding its child. Skipped, with the reason, where this machine
 * does not serve it.
 */
@Tag("kernel")
class KernelDeviceFilterTest extends CgroupFsContractSupport {
  private static final DeviceRule NULL = new DeviceRule(Type.CHAR, 1, 3, "rw");
  private static final DeviceRule ZERO_READ = new DeviceRule(Type.CHAR, 1, 5, "r");
  private static final DeviceRule URANDOM = new DeviceRule(Type.CHAR, 1, 9, "rw");

  /** Each device opened in a subshell; one word per line: ok or denied. */
  private static final String PROBE =
      "for f in 'head -c1 /dev/zero' 'echo x >/dev/zero' 'head -c1 /dev/urandom' "
          + "'echo x >/dev/null'; do if (eval \"$f\" >/dev/null) 2>/dev/null; then echo ok; else echo denied; fi; done";

  private Hierarchy unified;

  KernelDeviceFilterTest() {
    super(ContractBackend.host());
  }

  @BeforeEach
  void findUnified() {
    unified = unified();
  }

  private CgroupPath make(String relative) throws IOException {
    return make(unified, relative);
  }

  /**
   * What the probe could open, from inside {@code cgroup}: zero read, zero write, urandom read,
   * null write.
   */
  private List<String> probe(CgroupPath cgroup) throws Exception {
    Process p =
        fs.start(
            new ProcessBuilder("/bin/sh", "-c", PROBE).redirectErrorStream(true),
            Map.of(unified, cgroup));
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return List.of(out.strip().split("\n"));
  }

  @Test
  void aProcessInTheCgroupOpensOnlyWhatTheRulesAllowAndTheRulesReadBack() throws Exception {
    CgroupPath job = make("job");
    assertThat(fs.deviceFilter(unified, job)).isEmpty();
    assertThat(probe(job)).containsExactly("ok", "ok", "ok", "ok");
    List<DeviceRule> rules = List.of(NULL, ZERO_READ);
    fs.setDeviceFilter(unified, job, rules);
    assertThat(probe(job)).containsExactly("ok", "denied", "denied", "ok");
    assertThat(fs.deviceFilter(unified, job)).contains(rules);
  }

  @Test
  void anUpdateReplacesTheProgramAndRemovingItAllowsEverythingAgain() throws Exception {
    CgroupPath job = make("job");
    fs.setDeviceFilter(unified, job, List.of(NULL, ZERO_READ));
    List<DeviceRule> urandom = List.of(NULL, URANDOM);
    fs.setDeviceFilter(unified, job, urandom);
    assertThat(probe(job)).containsExactly("denied", "denied", "ok", "ok");
    assertThat(fs.deviceFilter(unified, job)).contains(urandom);
    assertThat(fs.markerKeys(unified, job)).filteredOn(k -> k.startsWith("devices.")).hasSize(1);
    fs.setDeviceFilter(unified, job, null);
    assertThat(probe(job)).containsExactly("ok", "ok", "ok", "ok");
    assertThat(fs.deviceFilter(unified, job)).isEmpty();
    assertThat(fs.markerKeys(unified, job)).noneMatch(k -> k.startsWith("devices."));
  }

  @Test
  void aParentsFilterStillAppliesToAChildWithItsOwn() throws Exception {
    CgroupPath parent = make("parent");
    CgroupPath child = make("parent/child");
    fs.setDeviceFilter(unified, parent, List.of(NULL, ZERO_READ));
    fs.setDeviceFilter(unified, child, List.of(NULL, ZERO_READ, URANDOM));
    assertThat(probe(child)).containsExactly("ok", "denied", "denied", "ok");
  }

  @Test
  void aRewrittenRecordIsNotBelieved() throws Exception {
    CgroupPath job = make("job");
    fs.setDeviceFilter(unified, job, List.of(NULL));
    String key =
        fs.markerKeys(unified, job).stream()
            .filter(k -> k.startsWith("devices."))
            .findFirst()
            .orElseThrow();
    fs.setMarker(
        unified, job, key, "a *:* rwm\n"); // what a tenant owning the directory could write
    CgroupFsException e =
        catchThrowableOfType(CgroupFsException.class, () -> fs.deviceFilter(unified, job));
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains(job.value(), "no record");
    assertThat(probe(job))
        .containsExactly("denied", "denied", "denied", "ok"); // the program is what holds
  }
}
