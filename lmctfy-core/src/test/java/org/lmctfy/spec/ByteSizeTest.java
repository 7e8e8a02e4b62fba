package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.spec.InvalidArgument.messageOf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Byte fields take sizes with binary suffixes, in the text format and in JSON; specs print bytes.
 */
class ByteSizeTest {

  @ParameterizedTest
  @CsvSource({
    "4096, 4096",
    "1K, 1024",
    "512Ki, 524288",
    "256M, 268435456",
    "256Mi, 268435456",
    "1G, 1073741824",
    "3Gi, 3221225472",
    "2T, 2199023255552",
    "1P, 1125899906842624",
    "0M, 0",
    "-1, -1"
  })
  void memoryLimitTakesASizeInTextAndJson(String written, long bytes) {
    assertThat(ContainerSpec.parse("memory { limit: " + written + " }").memory().limit())
        .isEqualTo(bytes);
    assertThat(ContainerSpec.parse("memory { limit: \"" + written + "\" }").memory().limit())
        .isEqualTo(bytes);
    assertThat(
            ContainerSpec.parse("{\"memory\": {\"limit\": \"" + written + "\"}}").memory().limit())
        .isEqualTo(bytes);
  }

  @Test
  void everyByteFieldTakesASize() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "memory { limit: 1G swap_limit: 2G reservation: 512M high: 768M"
                + " min: 64M zswap_limit: 128M }"
                + " hugetlb { limits { page_size: \"2MB\" limit: 1G reserved_limit: 512M } }"
                + " blockio { device_limits { major: 8 minor: 0 read_bps: 10M write_bps: 5M read_iops: 100 } }");

    assertThat(spec.memory())
        .isEqualTo(
            new MemorySpec(
                1L << 30,
                2L << 30,
                512L << 20,
                768L << 20,
                null,
                null,
                null,
                64L << 20,
                128L << 20));
    assertThat(spec.hugetlb().limits().get(0).limit()).isEqualTo(1L << 30);
    assertThat(spec.hugetlb().limits().get(0).reservedLimit()).isEqualTo(512L << 20);
    assertThat(spec.blockio().deviceLimits().get(0).readBps()).isEqualTo(10L << 20);
    assertThat(spec.blockio().deviceLimits().get(0).writeBps()).isEqualTo(5L << 20);
  }

  @Test
  void aSpecWithSizesPrintsBytesThatReadBackTheSame() {
    ContainerSpec spec = ContainerSpec.parse("memory { limit: 256M swap_limit: 1G }");

    assertThat(spec.toText()).contains("limit: 268435456").contains("swap_limit: 1073741824");
    assertThat(ContainerSpec.parse(spec.toText())).isEqualTo(spec);
    assertThat(ContainerSpec.parse(spec.toJson())).isEqualTo(spec);
  }

  @Test
  void aSizeWhereNoBytesAreMeantNamesTheField() {
    messageOf(() -> ContainerSpec.parse("cpu { limit: 1K }"))
        .startsWith("cpu.limit")
        .contains("1K")
        .contains("only byte fields");
    messageOf(() -> ContainerSpec.parse("pids { limit: 2M }"))
        .startsWith("pids.limit")
        .contains("2M");
    messageOf(() -> ContainerSpec.parse("{\"cpu\": {\"limit\": \"1K\"}}")).startsWith("cpu.limit");
  }

  @ParameterizedTest
  @CsvSource({"256MB", "1.5G", "-1K", "-2", "K", "256iK", "0x10", "abc", "256 M"})
  void aMalformedSizeNamesTheFieldAndTheForms(String written) {
    messageOf(() -> ContainerSpec.parse("{\"memory\": {\"limit\": \"" + written + "\"}}"))
        .startsWith("memory.limit")
        .contains(written)
        .contains("K or Ki = 1024");
  }

  @Test
  void aMalformedUnquotedSizeIsASyntaxErrorThatSaysWhichSuffixesExist() {
    messageOf(() -> ContainerSpec.parse("memory { limit: 256MB }"))
        .contains("256MB")
        .contains("Ki");
    messageOf(() -> ContainerSpec.parse("memory { limit: 1.5G }")).contains("1.5G").contains("Ki");
  }

  @Test
  void aSizeTooLargeForALongIsRefused() {
    messageOf(() -> ContainerSpec.parse("memory { limit: 8192P }"))
        .startsWith("memory.limit")
        .contains("8192P")
        .contains("more than");
  }
}
