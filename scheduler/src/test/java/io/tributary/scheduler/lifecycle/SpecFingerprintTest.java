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
  }

  private static String fingerprint(String text) {
    return SpecFingerprint.of(JobSpecs.parse(text));
  }
}
