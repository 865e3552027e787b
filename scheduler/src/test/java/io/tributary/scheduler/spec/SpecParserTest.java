package io.tributary.scheduler.spec;

import static io.tributary.scheduler.spec.SpecTexts.resource;
import static io.tributary.scheduler.spec.SpecTexts.shapeErrors;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecParserTest {
  @Test
  void readsTheExampleInYaml() {
    JobSpec spec = SpecParser.parse(resource("auction-activity.yaml"));

    assertThat(spec.name()).isEqualTo("auction-activity");
    assertThat(spec.parallelism()).isEqualTo(ParallelismSpec.fixed(2));
    assertThat(spec.maxParallelism()).isEqualTo(128);
    assertThat(spec.checkpoints()).isEqualTo(new CheckpointSpec(10_000, "exactly-once"));
    assertThat(spec.state().backend()).isEqualTo("heap");
    SourceSpec bids = spec.sources().get("bids");
    assertThat(bids).isEqualTo(new SourceSpec("bids", "nexmark", "json",
        new EventTimeSpec("dateTime", 4_000, 30_000), 1000.0, "bad-bids", Map.of("kind", "bid", "events", 100000L)));
    assertThat(spec.operators()).extracting(OperatorSpec::id).containsExactly("expensive", "per-auction");
    OperatorSpec expensive = spec.operators().get(0);
    assertThat(expensive.filter()).isEqualTo("price > 1000");
    assertThat(expensive.select()).containsExactly(Map.entry("auction", "auction"), Map.entry("price_eur", "price * 0.908"));
    OperatorSpec perAuction = spec.operators().get(1);
    assertThat(perAuction.keyBy()).containsExactly("auction");
    assertThat(perAuction.window()).isEqualTo(new WindowSpec("sliding", 10_000, 2_000, 0, 5_000, "late-bids", null));
    assertThat(perAuction.aggregate()).containsKeys("bids", "top", "total");
    assertThat(List.copyOf(perAuction.aggregate().keySet())).containsExactly("bids", "top", "total");
    assertThat(spec.sinks().keySet()).containsExactly("out", "late", "bad");
    assertThat(spec.sinks().get("out").properties()).containsExactly(
        Map.entry("bootstrapServers", "localhost:9092"), Map.entry("topic", "auction-activity"),
        Map.entry("delivery", "at-least-once"));
    assertThat(spec.sinks().get("late")).isEqualTo(
        new SinkSpec("late", "late-bids", "file", "json", Map.of("path", "out/late-bids")));
  }

  @Test
  void readsTheSameSpecFromJson() {
    assertThat(SpecParser.parse(resource("auction-activity.json")))
        .isEqualTo(SpecParser.parse(resource("auction-activity.yaml")));
  }

  @Test
  void appliesDefaults() {
    JobSpec spec = SpecParser.parse("""
        name: j
        sources: {s: {type: datagen}}
        sinks: {k: {input: s, type: blackhole}}
        """);

    assertThat(spec.parallelism()).isEqualTo(ParallelismSpec.fixed(1));
    assertThat(spec.maxParallelism()).isNull();
    assertThat(spec.effectiveMaxParallelism()).isEqualTo(128);
    assertThat(spec.checkpoints()).isNull();
    assertThat(spec.state()).isEqualTo(StateSpec.DEFAULT);
    assertThat(spec.sources().get("s").format()).isEqualTo("json");
    assertThat(spec.sources().get("s").properties()).isEmpty();
    assertThat(spec.operators()).isEmpty();
  }

  @Test
  void parallelismObjectFillsAbsentBoundsFromInitial() {
    String text = "name: j\nparallelism: %s\nsources: {s: {type: datagen}}\nsinks: {k: {input: s, type: stdout}}\n";

    assertThat(SpecParser.parse(text.formatted("{initial: 2, max: 8}")).parallelism())
        .isEqualTo(new ParallelismSpec(2, 2, 8));
    assertThat(SpecParser.parse(text.formatted("{min: 3, max: 8}")).parallelism())
        .isEqualTo(new ParallelismSpec(3, 3, 8));
    assertThat(SpecParser.parse(text.formatted("{initial: 4, max: 500}")).effectiveMaxParallelism())
        .isEqualTo(1024);
  }

  @Test
  void keepsTypeSpecificPropertiesAsPlainValues() {
    JobSpec spec = SpecParser.parse("""
        name: j
        sources:
          k: {type: kafka, bootstrapServers: "b:9092", topic: t, startFrom: latest,
              properties: {fetch.min.bytes: 1, check.crcs: false, client.id: me}}
          d: {type: datagen, count: 10, keys: 3, seed: -1, interval: 5ms, startTime: 0}
          n: {type: nexmark, eventRate: 500, startTime: 1800000000000}
        sinks: {out: {input: k, type: kafka, bootstrapServers: "b:9092", topic: o, keyFields: user}}
        """);

    assertThat(spec.sources().get("k").properties()).containsExactly(
        Map.entry("bootstrapServers", "b:9092"), Map.entry("topic", "t"), Map.entry("startFrom", "latest"),
        Map.entry("properties", Map.of("fetch.min.bytes", "1", "check.crcs", "false", "client.id", "me")));
    assertThat(spec.sources().get("d").properties()).containsExactly(
        Map.entry("count", 10L), Map.entry("keys", 3L), Map.entry("seed", -1L), Map.entry("interval", "5ms"),
        Map.entry("startTime", 0L));
    assertThat(spec.sources().get("n").properties()).containsExactly(
        Map.entry("eventRate", 500L), Map.entry("startTime", 1800000000000L));
    assertThat(spec.sinks().get("out").properties().get("keyFields")).isEqualTo(List.of("user"));
  }

  @Test
  void malformedTextIsOneErrorAtTheRootWithLineAndColumn() {
    List<SpecError> errors = shapeErrors("name: j\nsources:\n  s: {type: datagen\n  x: [\n");

    assertThat(errors).hasSize(1);
    assertThat(errors.get(0).pointer()).isEmpty();
    assertThat(errors.get(0).message()).startsWith("malformed YAML/JSON at line ").contains("column");
  }

  @Test
  void malformedJsonIsReportedToo() {
    List<SpecError> errors = shapeErrors("{\"name\": \"j\",\n \"sources\": {\"a\": 1,,}}");

    assertThat(errors).singleElement().satisfies(e -> {
      assertThat(e.pointer()).isEmpty();
      assertThat(e.message()).contains("line 2");
    });
  }

  @Test
  void emptyOrNonObjectDocumentsAreErrors() {
    assertThat(shapeErrors("")).containsExactly(new SpecError("", "the spec is empty"));
    assertThat(shapeErrors("- a\n- b\n")).containsExactly(new SpecError("", "must be an object, found a list"));
  }

  @Test
  void duplicateKeysAreMalformed() {
    assertThat(shapeErrors("name: a\nname: b\n")).singleElement()
        .satisfies(e -> assertThat(e.message()).endsWith("duplicate field 'name'"));
  }

  @Test
  void parseThrowsWithEveryShapeError() {
    assertThatThrownBy(() -> SpecParser.parse("name: 3\nsizee: 1\n"))
        .isInstanceOf(InvalidSpecException.class)
        .hasMessageContaining("/name: must be a string")
        .hasMessageContaining("/sources: is required")
        .hasMessageContaining("/sizee: unknown field 'sizee'");
  }

  @Test
  void anAutoscalerBlockIsOnWithItsDefaultsAndSaysWhatIsWrong() {
    String base = "name: j\nparallelism: {min: 1, max: 4}\nsources: {s: {type: datagen}}\n"
        + "sinks: {o: {input: s, type: stdout}}\n";
    assertThat(SpecParser.parse(base).autoscaler()).as("no block").isNull();
    assertThat(SpecParser.parse(base).autoscalerSettings().enabled()).isFalse();

    JobSpec on = SpecParser.parse(base + "autoscaler: {scaleDownDelay: 10m, targetUtilization: 0.6}\n");
    assertThat(on.autoscaler()).isEqualTo(new AutoscalerSpec(true, 0.6, 0.1, 120_000, 60_000, 600_000, 300_000, 6));
    assertThat(on.autoscalerSettings().scaleDownDelay()).isEqualTo(java.time.Duration.ofMinutes(10));
    assertThat(SpecParser.parse(base + "autoscaler: {enabled: false}\n").autoscalerSettings().enabled()).isFalse();

    assertThatThrownBy(() -> SpecParser.parse(base
        + "autoscaler: {targetUtilization: 1.5, utilizationBand: -1, maxDecisionsPerHour: 0, window: 1m}\n"))
        .isInstanceOf(InvalidSpecException.class)
        .hasMessageContaining("/autoscaler/targetUtilization: must be at most 1")
        .hasMessageContaining("/autoscaler/utilizationBand: must be a number from 0")
        .hasMessageContaining("/autoscaler/maxDecisionsPerHour: must be between 1 and 60")
        .hasMessageContaining("/autoscaler/window: unknown field 'window'");
    assertThatThrownBy(() -> SpecParser.parse(base.replace("{min: 1, max: 4}", "3") + "autoscaler: {}\n"))
        .isInstanceOf(InvalidSpecException.class)
        .hasMessageContaining("/autoscaler/enabled: the parallelism is pinned at 3");
  }

  @Test
  void idleAfterDefaultsToTenMinutesForCheckpointedKafkaJobsAndIsRefusedWhereTheJobCouldNotResume() {
    String kafka = "name: j\ncheckpoints: {interval: 5s}\n"
        + "sources: {s: {type: kafka, bootstrapServers: 'localhost:9092', topic: t}}\n"
        + "sinks: {o: {input: s, type: stdout}}\n";
    assertThat(SpecParser.parse(kafka).idleAfterMillis()).as("absent: not in the fingerprint").isNull();
    assertThat(SpecParser.parse(kafka).effectiveIdleAfter()).isEqualTo(java.time.Duration.ofMinutes(10));
    assertThat(SpecParser.parse(kafka + "idleAfter: 30s\n").effectiveIdleAfter())
        .isEqualTo(java.time.Duration.ofSeconds(30));
    assertThat(SpecParser.parse(kafka + "idleAfter: off\n").idleAfterMillis()).isZero();
    assertThat(SpecParser.parse(kafka + "idleAfter: off\n").effectiveIdleAfter()).isNull();
    assertThat(SpecParser.parse(kafka.replace("checkpoints: {interval: 5s}\n", "")).effectiveIdleAfter())
        .as("without checkpoints there is nothing to resume from").isNull();
    String datagen = "name: j\ncheckpoints: {interval: 5s}\nsources: {s: {type: datagen}}\n"
        + "sinks: {o: {input: s, type: stdout}}\n";
    assertThat(SpecParser.parse(datagen).effectiveIdleAfter()).as("a generator is never watched").isNull();

    assertThat(shapeErrors(datagen + "idleAfter: 1m\n")).singleElement().satisfies(e -> {
      assertThat(e.pointer()).isEqualTo("/idleAfter");
      assertThat(e.message()).contains("source 's' (datagen) cannot be watched for new input").contains("idleAfter: off");
    });
    assertThat(shapeErrors(kafka.replace("checkpoints: {interval: 5s}\n", "") + "idleAfter: 1m\n")).singleElement()
        .satisfies(e -> assertThat(e.message()).contains("give it checkpoints"));
    assertThat(shapeErrors(kafka + "idleAfter: 500ms\n")).singleElement()
        .satisfies(e -> assertThat(e.message()).contains("at least 1s"));
    assertThat(shapeErrors(kafka + "idleAfter: soon\n")).singleElement()
        .satisfies(e -> assertThat(e.pointer()).isEqualTo("/idleAfter"));
  }

  @Test
  void stateMayAllowARestoreToLeaveBehindTheStateOfOperatorsTheJobNoLongerHas() {
    String base = "name: j\nsources: {s: {type: datagen}}\nsinks: {o: {input: s, type: stdout}}\n";
    assertThat(SpecParser.parse(base).state().allowsNonRestoredState()).isFalse();
    JobSpec allowing = SpecParser.parse(base + "state: {backend: heap, allowNonRestoredState: true}\n");
    assertThat(allowing.state()).isEqualTo(new StateSpec("heap", true));
    assertThat(allowing.state().allowsNonRestoredState()).isTrue();
    assertThat(SpecParser.parse(base + "state: {allowNonRestoredState: false}\n").state()).isEqualTo(StateSpec.DEFAULT);
    assertThat(shapeErrors(base + "state: {allowNonRestoredState: yes please}\n")).singleElement().satisfies(e -> {
      assertThat(e.pointer()).isEqualTo("/state/allowNonRestoredState");
      assertThat(e.message()).isEqualTo("must be true or false");
    });
  }

  @Test
  void checkpointsTakeModeAndRetain() {
    String base = "name: j\nsources: {s: {type: datagen}}\nsinks: {o: {input: s, type: stdout}}\n";
    JobSpec spec = SpecParser.parse(base + "checkpoints: {interval: 1s, mode: at-least-once, retain: 5}\n");
    assertThat(spec.checkpoints()).isEqualTo(new CheckpointSpec(1_000, "at-least-once", 5));
    assertThat(spec.checkpoints().exactlyOnce()).isFalse();
    assertThat(SpecParser.parse(base + "checkpoints: {interval: 1s}\n").checkpoints().retain())
        .isEqualTo(CheckpointSpec.DEFAULT_RETAIN);
    assertThat(shapeErrors(base + "checkpoints: {interval: 1s, retain: 0}\n")).singleElement()
        .satisfies(e -> {
          assertThat(e.pointer()).isEqualTo("/checkpoints/retain");
          assertThat(e.message()).contains("between 1 and 100");
        });
  }

  @Test
  void checkpointsMayBeUnalignedWithAnAlignmentTimeoutWhenExactlyOnce() {
    String base = "name: j\nsources: {s: {type: datagen}}\nsinks: {o: {input: s, type: stdout}}\n";
    assertThat(SpecParser.parse(base + "checkpoints: {interval: 1s, unaligned: true}\n").checkpoints())
        .isEqualTo(new CheckpointSpec(1_000, "exactly-once", CheckpointSpec.DEFAULT_RETAIN, true, 0));
    assertThat(SpecParser.parse(base + "checkpoints: {interval: 1s, unaligned: true, alignmentTimeout: 10s}\n")
        .checkpoints().alignmentTimeoutMillis()).isEqualTo(10_000);
    assertThat(SpecParser.parse(base + "checkpoints: {interval: 1s}\n").checkpoints().unaligned()).isFalse();

    assertThat(shapeErrors(base + "checkpoints: {interval: 1s, mode: at-least-once, unaligned: true}\n"))
        .singleElement().satisfies(e -> {
          assertThat(e.pointer()).isEqualTo("/checkpoints/unaligned");
          assertThat(e.message()).contains("exactly-once");
        });
    assertThat(shapeErrors(base + "checkpoints: {interval: 1s, unaligned: yes please}\n")).singleElement()
        .satisfies(e -> assertThat(e.pointer()).isEqualTo("/checkpoints/unaligned"));
    assertThat(shapeErrors(base + "checkpoints: {interval: 1s, alignmentTimeout: 10s}\n")).singleElement()
        .satisfies(e -> {
          assertThat(e.pointer()).isEqualTo("/checkpoints/alignmentTimeout");
          assertThat(e.message()).contains("unaligned: true");
        });
    assertThat(shapeErrors(base + "checkpoints: {interval: 1s, unaligned: true, alignmentTimeout: -1s}\n"))
        .singleElement().satisfies(e -> assertThat(e.pointer()).isEqualTo("/checkpoints/alignmentTimeout"));
  }
}
