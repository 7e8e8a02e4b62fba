package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.spec.InvalidArgument.messageOf;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The records validate without the codec, in the codec's terms: a bad string is shown as the text
 * format writes it, and a record's refusal has the form of a parse error.
 */
class ChecksTest {
  @Test
  void aBadStringIsShownAsTheTextFormatWritesIt() {
    for (String s :
        List.of(
            "/plain",
            "/a\"b",
            "/back\\slash",
            "/line\nbreak",
            "/tab\tcr\r",
            "/bell\u0007del\u007f",
            "/\u00fcber")) {
      String text =
          ContainerSpec.builder()
              .virtualHost(VirtualHostSpec.empty())
              .filesystem(FilesystemSpec.builder().rootfs(s).build())
              .build()
              .toText();
      assertThat(text).as(s).contains("rootfs: " + Checks.describe(s));
    }
  }

  @Test
  void aRecordsRefusalHasTheFormOfAParseError() {
    // the codec's parser of CPU lists refuses "x"; the records' Checks would say it so
    messageOf(() -> ContainerSpec.parse("cpu { mask: \"x\" }"))
        .startsWith("cpu.mask" + Checks.invalid("", "x", "").getMessage());
  }
}
