package org.lmctfy.spec;

import static org.lmctfy.spec.InvalidArgument.messageOf;

import org.junit.jupiter.api.Test;

class ContainerSpecParseErrorTest {

  @Test
  void unknownTopLevelFieldIsNamed() {
    messageOf(() -> ContainerSpec.parse("cpus { limit: 1 }"))
        .startsWith("cpus: unknown field")
        .contains("cpu", "memory");
  }

  @Test
  void unknownNestedFieldIsNamedByItsPath() {
    messageOf(() -> ContainerSpec.parse("cpu { limt: 1000 }"))
        .startsWith("cpu.limt: unknown field")
        .contains("limit", "max_limit");
  }

  @Test
  void unknownFieldInJsonIsNamedByItsPath() {
    messageOf(() -> ContainerSpec.parse("{\"memory\": {\"swap\": 1}}"))
        .startsWith("memory.swap: unknown field");
  }

  @Test
  void unknownFieldInsideAListElementNamesTheIndex() {
    messageOf(
            () ->
                ContainerSpec.parse(
                    "device { rules { permission: DENY type: ALL access: 'r' }"
                        + " rules { permision: ALLOW } }"))
        .startsWith("device.rules[1].permision: unknown field");
  }

  @Test
  void unknownFieldInTheBitmaskIsNamed() {
    messageOf(() -> ContainerSpec.parse("cpu { mask { bits: 1 } }"))
        .startsWith("cpu.mask.bits: unknown field");
  }

  @Test
  void syntaxErrorGivesLineAndColumnAndPath() {
    messageOf(() -> ContainerSpec.parse("cpu {\n  limit 1000\n}"))
        .isEqualTo(
            "cpu.limit: syntax error at 2:9: "
                + "expected ':' or '{' after the field name, got '1000'");
  }

  @Test
  void unclosedMessageIsASyntaxError() {
    messageOf(() -> ContainerSpec.parse("cpu { limit: 1"))
        .isEqualTo("cpu: syntax error at 1:15: expected a field name or '}', got end of input");
  }

  @Test
  void missingValueIsASyntaxError() {
    messageOf(() -> ContainerSpec.parse("memory { limit: }"))
        .startsWith("memory.limit: syntax error at 1:17: expected a value");
  }

  @Test
  void unterminatedStringIsASyntaxError() {
    messageOf(() -> ContainerSpec.parse("cpu { mask: \"0-3 }"))
        .isEqualTo("syntax error at 1:13: unterminated string");
  }

  @Test
  void unknownEscapeIsASyntaxErrorAtTheBackslash() {
    messageOf(() -> ContainerSpec.parse("cpu { mask: '\\q' }"))
        .isEqualTo("syntax error at 1:14: unknown escape '\\q' in string");
  }

  @Test
  void strayCharacterIsASyntaxError() {
    messageOf(() -> ContainerSpec.parse("cpu { limit: 1 } @"))
        .isEqualTo("syntax error at 1:18: unexpected character '@'");
  }

  @Test
  void numberRunningIntoLettersIsASyntaxError() {
    messageOf(() -> ContainerSpec.parse("memory { limit: 100MB }"))
        .isEqualTo(
            "syntax error at 1:17: malformed number '100MB' (a size is a whole number with one binary"
                + " suffix: K, M, G, T, P or Ki, Mi, Gi, Ti, Pi, such as 256M)");
  }

  @Test
  void jsonSyntaxErrorGivesLineAndColumn() {
    messageOf(() -> ContainerSpec.parse("{\"cpu\": {\"limit\": 1,}}"))
        .contains("syntax error at 1:");
  }

  @Test
  void duplicateJsonKeyIsRejected() {
    messageOf(() -> ContainerSpec.parse("{\"owner\": 1, \"owner\": 2}")).contains("owner");
  }

  @Test
  void stringForANumberNamesFieldAndValue() {
    messageOf(() -> ContainerSpec.parse("cpu { limit: 'lots' }"))
        .isEqualTo("cpu.limit: invalid value \"lots\": expected an integer");
  }

  @Test
  void numericStringForANumberIsRejectedToo() {
    messageOf(() -> ContainerSpec.parse("{\"cpu\": {\"limit\": \"1000\"}}"))
        .isEqualTo("cpu.limit: invalid value \"1000\": expected an integer");
  }

  @Test
  void floatForAnIntegerNamesFieldAndValue() {
    messageOf(() -> ContainerSpec.parse("memory { limit: 1.5 }"))
        .isEqualTo("memory.limit: invalid value 1.5: expected an integer");
  }

  @Test
  void floatForAnIntegerInJsonIsRejected() {
    messageOf(() -> ContainerSpec.parse("{\"pids\": {\"limit\": 2.0}}"))
        .startsWith("pids.limit: invalid value 2.0");
  }

  @Test
  void numberTooLargeForALongNamesFieldAndValue() {
    messageOf(() -> ContainerSpec.parse("memory { limit: 99999999999999999999 }"))
        .startsWith("memory.limit: invalid value")
        .contains("99999999999999999999");
  }

  @Test
  void numberTooLargeForALongInJsonNamesFieldAndValue() {
    messageOf(() -> ContainerSpec.parse("{\"owner\": 99999999999999999999}"))
        .startsWith("owner: invalid value")
        .contains("99999999999999999999");
  }

  @Test
  void numberTooLargeForAnIntNamesTheField() {
    messageOf(() -> ContainerSpec.parse("blockio { weight: 4294967296 }"))
        .startsWith("blockio.weight: invalid value");
  }

  @Test
  void unknownEnumConstantListsTheValidOnes() {
    messageOf(() -> ContainerSpec.parse("cpu { scheduling_latency: FAST }"))
        .isEqualTo(
            "cpu.scheduling_latency: invalid value \"FAST\": "
                + "expected one of PREMIER, PRIORITY, NORMAL, BEST_EFFORT");
  }

  @Test
  void enumByNumberIsRejected() {
    messageOf(() -> ContainerSpec.parse("cpu { scheduling_latency: 1 }"))
        .startsWith("cpu.scheduling_latency: invalid value 1");
  }

  @Test
  void numberForABooleanIsRejected() {
    messageOf(() -> ContainerSpec.parse("memory { oom_group: 1 }"))
        .startsWith("memory.oom_group: invalid value 1: expected true or false");
  }

  @Test
  void scalarForASectionIsRejected() {
    messageOf(() -> ContainerSpec.parse("cpu: 5"))
        .isEqualTo("cpu: invalid value 5: expected a message { ... }");
  }

  @Test
  void sectionGivenTwiceIsRejected() {
    messageOf(() -> ContainerSpec.parse("cpu { limit: 1 } cpu { limit: 2 }"))
        .startsWith("cpu: invalid value [...]");
  }

  @Test
  void missingRequiredPrimitiveIsNamed() {
    messageOf(() -> ContainerSpec.parse("blockio { device_limits { minor: 0 read_bps: 1 } }"))
        .isEqualTo("blockio.device_limits[0].major: required");
  }

  @Test
  void negativeBitmaskWordIsRejected() {
    messageOf(() -> ContainerSpec.parse("cpu { mask { data: 1 data: -1 } }"))
        .isEqualTo("cpu.mask.data[1]: invalid value -1: must be an unsigned 64-bit word");
  }

  @Test
  void emptyBitmaskIsRejected() {
    messageOf(() -> ContainerSpec.parse("cpu { mask { data: 0 } }"))
        .startsWith("cpu.mask.data: invalid value")
        .contains("at least one CPU");
  }

  @Test
  void nullTextIsRejected() {
    messageOf(() -> ContainerSpec.parse(null)).contains("null");
  }
}
