package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.spec.BlockIoSpec;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.CpuSpec;
import org.lmctfy.spec.DeviceSpec;
import org.lmctfy.spec.DeviceSpec.DeviceRule;
import org.lmctfy.spec.DeviceSpec.Permission;
import org.lmctfy.spec.DeviceSpec.Type;
import org.lmctfy.spec.MemorySpec;
import org.lmctfy.spec.PidsSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSnapshot;

/**
 * Random valid specs on the fake (laid out like this project's machines): create, read back equal,
 * update DIFF and REPLACE to other random specs, read back equal; random invalid specs fail with
 * INVALID_ARGUMENT and change nothing.
 */
class SpecPropertyTest {

  @Property(tries = 150)
  void specsRoundTripThroughCreateDiffAndReplace(
      @ForAll("specs") ContainerSpec created,
      @ForAll("specs") ContainerSpec diff,
      @ForAll("specs") ContainerSpec replaced) {
    ContainerApi api = ContainerApi.open(FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2));
    Container job = api.create("/job", created);
    assertThat(job.spec()).isEqualTo(api.normalise(created));
    job.update(diff, UpdatePolicy.DIFF);
    assertThat(job.spec()).isEqualTo(api.normalise(merge(created, diff)));
    job.update(replaced, UpdatePolicy.REPLACE);
    assertThat(job.spec()).isEqualTo(api.normalise(replaced));
  }

  @Property(tries = 100)
  void invalidSpecsAreInvalidArgumentsAndChangeNothing(
      @ForAll("specs") ContainerSpec valid, @ForAll("invalid") String invalid) {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    ContainerApi api = ContainerApi.open(fs);
    Container job = api.create("/job", valid);
    FakeSnapshot before = fs.snapshot();
    assertThatLmctfyException(
            () -> {
              ContainerSpec spec = ContainerSpec.parse(invalid);
              job.update(spec, UpdatePolicy.DIFF);
            })
        .as(invalid)
        .hasCode(ErrorCode.INVALID_ARGUMENT);
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Provide
  Arbitrary<String> invalid() {
    return Arbitraries.of(
        "cpu { limit: 300000 }",
        "cpu { max_limit: 3 }",
        "cpu { mask: \"0-4095\" }",
        "memory { limit: 8192 swap_limit: 4096 }",
        "memory { limit: -5 }",
        "pids { limit: 0 }",
        "blockio { weight: 5 }",
        "device { rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: \"rw\" } }",
        "cpu { limt: 3 }");
  }

  @Provide
  Arbitrary<ContainerSpec> specs() {
    Arbitrary<CpuSpec> cpu =
        Combinators.combine(
                Arbitraries.longs().between(0, 256_000).injectNull(0.3),
                Arbitraries.oneOf(Arbitraries.just(-1L), Arbitraries.longs().between(10, 200_000))
                    .injectNull(0.3),
                Arbitraries.of("0", "1", "0-1").injectNull(0.5),
                Arbitraries.just("0").injectNull(0.5))
            .as(
                (l, m, mask, nodes) ->
                    CpuSpec.builder().limit(l).maxLimit(m).mask(mask).memoryNodes(nodes).build());
    Arbitrary<MemorySpec> memory =
        Combinators.combine(
                Arbitraries.longs().between(4096, 1L << 34).injectNull(0.3),
                Arbitraries.longs().between(0, 1L << 30),
                Arbitraries.longs().between(0, 1L << 34).injectNull(0.5),
                Arbitraries.of(true, false).injectNull(0.5),
                Arbitraries.integers().between(0, 100).injectNull(0.5))
            .as(
                (limit, extra, reservation, oom, swappiness) ->
                    MemorySpec.builder()
                        .limit(limit)
                        .swapLimit(limit == null ? null : limit + extra)
                        .reservation(reservation)
                        .oomKillDisable(oom)
                        .swappiness(swappiness)
                        .build());
    Arbitrary<DeviceSpec> device =
        Arbitraries.subsetOf(
                new DeviceRule(Permission.ALLOW, Type.CHAR, 1, 3, "rw"),
                new DeviceRule(Permission.ALLOW, Type.CHAR, 1, 5, "rwm"),
                new DeviceRule(Permission.ALLOW, Type.BLOCK, 8, 0, "r"))
            .map(
                allowed -> {
                  List<DeviceRule> rules = new ArrayList<>();
                  rules.add(new DeviceRule(Permission.DENY, Type.ALL, -1, -1, "rwm"));
                  rules.addAll(allowed);
                  return new DeviceSpec(rules);
                });
    return Combinators.combine(
            cpu.injectNull(0.3),
            memory.injectNull(0.3),
            Arbitraries.oneOf(Arbitraries.just(-1L), Arbitraries.longs().between(1, 4096))
                .map(PidsSpec::new)
                .injectNull(0.4),
            Arbitraries.integers()
                .between(10, 1000)
                .map(w -> BlockIoSpec.builder().weight(w).build())
                .injectNull(0.6),
            device.injectNull(0.6),
            Arbitraries.longs().between(0, 65535).injectNull(0.7),
            Arbitraries.longs().between(0, 100).injectNull(0.7))
        .as(
            (c, m, p, b, d, owner, children) ->
                ContainerSpec.builder()
                    .cpu(c)
                    .memory(m)
                    .pids(p)
                    .blockio(b)
                    .device(d)
                    .owner(owner)
                    .childrenLimit(children)
                    .build());
  }

  /**
   * The spec after a DIFF update: a field the update gives replaces the field the container had.
   */
  static ContainerSpec merge(ContainerSpec a, ContainerSpec b) {
    CpuSpec c =
        a.cpu() == null
            ? b.cpu()
            : b.cpu() == null
                ? a.cpu()
                : CpuSpec.builder()
                    .limit(or(b.cpu().limit(), a.cpu().limit()))
                    .maxLimit(or(b.cpu().maxLimit(), a.cpu().maxLimit()))
                    .mask(or(b.cpu().mask(), a.cpu().mask()))
                    .memoryNodes(or(b.cpu().memoryNodes(), a.cpu().memoryNodes()))
                    .build();
    MemorySpec m =
        a.memory() == null
            ? b.memory()
            : b.memory() == null
                ? a.memory()
                : MemorySpec.builder()
                    .limit(or(b.memory().limit(), a.memory().limit()))
                    .swapLimit(or(b.memory().swapLimit(), a.memory().swapLimit()))
                    .reservation(or(b.memory().reservation(), a.memory().reservation()))
                    .oomKillDisable(or(b.memory().oomKillDisable(), a.memory().oomKillDisable()))
                    .swappiness(or(b.memory().swappiness(), a.memory().swappiness()))
                    .build();
    return ContainerSpec.builder()
        .cpu(c)
        .memory(m)
        .pids(or(b.pids(), a.pids()))
        .blockio(or(b.blockio(), a.blockio()))
        .device(or(b.device(), a.device()))
        .owner(or(b.owner(), a.owner()))
        .childrenLimit(or(b.childrenLimit(), a.childrenLimit()))
        .build();
  }

  private static <T> T or(T preferred, T otherwise) {
    return preferred != null ? preferred : otherwise;
  }
}
