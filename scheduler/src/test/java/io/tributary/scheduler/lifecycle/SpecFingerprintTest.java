package io.tributary.scheduler.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.scheduler.spec.JobSpecs;
import org.junit.jupiter.api.Test;

/** A spec's fingerprint follows its meaning, not its formatting. */
class SpecFingerprintTest {
  private static final String YAML = """
      name: clicks
      parallelism: 2
      checkpoints: {interval: 10s}
      sources:
        numbers: {type: datagen, count: 1000}
      operators:
        - {id: big, input: numbers, filter: "id > 10"}
      sinks:
        out: {input: big, type: blackhole}
      """;

  @Test
  void reformattingTheSpecKeepsItsFingerprint() {
    String reformatted = """
        # the same job, written differently
        sinks:
          out:
            type: blackhole
            input: big
        name: "clicks"
        checkpoints:
          interval: 10000ms
        parallelism: 2
        sources:
          numbers:
            count: 1000
            type: datagen
        operators:
          - id: big
            input: numbers
            filter: 'id > 10'
        """;
    String json = """
        {"name": "clicks", "parallelism": 2, "checkpoints": {"interval": "10s"},
         "sources": {"numbers": {"type": "datagen", "count": 1000}},
         "operators": [{"id": "big", "input": "numbers", "filter": "id > 10"}],
         "sinks": {"out": {"input": "big", "type": "blackhole"}}}
        """;
    String fingerprint = fingerprint(YAML);
    assertThat(fingerprint).startsWith("sha256:").hasSize("sha256:".length() + 64);
    assertThat(fingerprint(reformatted)).isEqualTo(fingerprint);
    assertThat(fingerprint(json)).isEqualTo(fingerprint);
  }

  @Test
  void aChangedValueChangesTheFingerprint() {
    String fingerprint = fingerprint(YAML);
    assertThat(fingerprint(YAML.replace("id > 10", "id > 11"))).isNotEqualTo(fingerprint);
    assertThat(fingerprint(YAML.replace("parallelism: 2", "parallelism: 3"))).isNotEqualTo(fingerprint);
    assertThat(fingerprint(YAML.replace("interval: 10s", "interval: 5s"))).isNotEqualTo(fingerprint);
    assertThat(fingerprint(YAML.replace("interval: 10s", "interval: 10s, unaligned: true")))
        .isNotEqualTo(fingerprint);
    assertThat(fingerprint(YAML + "state: {allowNonRestoredState: true}\n")).isNotEqualTo(fingerprint);
  }

  @Test
  void checkpointFieldsAddedSinceKeepTheFingerprintOfSpecsWithoutThem() {
    // the fingerprint of this spec before checkpoints could be unaligned
    assertThat(fingerprint(YAML))
        .isEqualTo(fingerprint(YAML.replace("interval: 10s", "interval: 10s, unaligned: false")))
        .isEqualTo(fingerprint(YAML + "state: {allowNonRestoredState: false}\n"))
        .isEqualTo("sha256:" + sha256("{\"name\":\"clicks\",\"parallelism\":{\"initial\":2,\"min\":2,\"max\":2},"
            + "\"maxParallelism\":null,\"checkpoints\":{\"intervalMillis\":10000,\"mode\":\"exactly-once\",\"retain\":3},"
            + "\"state\":{\"backend\":\"forst\"},\"sources\":{\"numbers\":{\"id\":\"numbers\",\"type\":\"datagen\","
            + "\"format\":\"json\",\"eventTime\":null,\"maxRecordsPerSecond\":null,\"deadLetterOutput\":null,"
            + "\"properties\":{\"count\":1000}}},\"operators\":[{\"id\":\"big\",\"input\":\"numbers\",\"filter\":\"id > 10\","
            + "\"select\":null,\"keyBy\":null,\"window\":null,\"aggregate\":null,\"globalWindow\":false}],"
            + "\"sinks\":{\"out\":{\"id\":\"out\",\"input\":\"big\",\"type\":\"blackhole\",\"format\":\"json\","
            + "\"properties\":{}}}}"));
  }

  private static String sha256(String text) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String fingerprint(String text) {
    return SpecFingerprint.of(JobSpecs.parse(text));
  }
}
