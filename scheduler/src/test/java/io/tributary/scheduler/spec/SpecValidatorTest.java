package io.tributary.scheduler.spec;

import static io.tributary.scheduler.spec.SpecTexts.errors;
import static io.tributary.scheduler.spec.SpecTexts.job;
import static io.tributary.scheduler.spec.SpecTexts.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Semantic errors, through {@link JobSpecs#parse}. Needs the real expression parser. */
class SpecValidatorTest {
  private static final String SINK = "sinks: {k: {input: src, type: stdout}}\n";

  @Test
  void theExampleIsValid() {
    assertThat(errors(resource("auction-activity.yaml"))).isEmpty();
    assertThat(errors(resource("auction-activity.json"))).isEmpty();
  }

  @Test
  void jobNameMustBeADnsLabel() {
    for (String bad : List.of("Auction", "-a", "a-", "a_b", "a".repeat(64))) {
      assertThat(errors("name: " + bad + "\nsources: {src: {type: datagen}}\n" + SINK))
          .as(bad).singleElement().satisfies(e -> {
            assertThat(e.pointer()).isEqualTo("/name");
            assertThat(e.message()).contains("is not a DNS label");
          });
    }
    assertThat(errors("name: " + "a".repeat(63) + "\nsources: {src: {type: datagen}}\n" + SINK)).isEmpty();
  }

  @Test
  void parallelismBounds() {
    String text = "name: j\nparallelism: %s\nsources: {src: {type: datagen}}\n" + SINK;
    assertThat(errors(text.formatted("0"))).containsExactly(new SpecError("/parallelism", "must be at least 1"));
    assertThat(errors(text.formatted("{initial: 2, min: 3, max: 4}")))
        .containsExactly(new SpecError("/parallelism/initial", "must not be below min (3)"));
    assertThat(errors(text.formatted("{initial: 5, max: 4}")))
        .containsExactly(new SpecError("/parallelism/max", "must not be below initial (5)"));
    assertThat(errors(text.formatted("40000")))
        .containsExactly(new SpecError("/parallelism", "must not exceed 32768"));
    assertThat(errors(text.formatted("{initial: 2, max: 200}\nmaxParallelism: 128")))
        .containsExactly(new SpecError("/parallelism/max", "must not exceed maxParallelism (128)"));
    assertThat(errors(text.formatted("1\nmaxParallelism: 40000")))
        .containsExactly(new SpecError("/maxParallelism", "must be between 1 and 32768"));
  }

  @Test
  void idsSourcesOperatorsSinksAndSideOutputsShareOneNamespace() {
    List<SpecError> errors = errors("""
        name: j
        sources:
          src: {type: datagen, eventTime: {field: ts}, deadLetterOutput: src}
        operators:
          - {id: f, input: src, filter: "a > 1"}
          - {id: f, input: src, keyBy: a}
          - {id: w, input: src, keyBy: a, window: {type: tumbling, size: 1s, lateOutput: k}, aggregate: {n: "count(*)"}}
        sinks: {k: {input: f, type: stdout}}
        """);

    String shared = "; sources, operators, sinks and side outputs share one namespace";
    assertThat(errors).containsExactly(
        new SpecError("/sources/src/deadLetterOutput", "'src' is already declared at /sources/src" + shared),
        new SpecError("/operators/1/id", "'f' is already declared at /operators/0/id" + shared),
        new SpecError("/sinks/k", "'k' is already declared at /operators/2/window/lateOutput" + shared));
  }

  @Test
  void unknownInputsSuggestAName() {
    assertThat(errors(job("operators:\n  - {id: f, input: sorc, filter: \"a > 1\"}\nsinks: {k: {input: f, type: stdout}, "
        + "l: {input: k, type: stdout}}\n")))
        .containsExactly(
            new SpecError("/operators/0/input", "unknown input 'sorc'; did you mean 'src'?; known: src, f"),
            new SpecError("/sinks/l/input", "'k' is a sink; an input must be a source, an operator or a side output"));
  }

  @Test
  void cyclesAreReportedOnce() {
    List<SpecError> errors = errors(job("""
        operators:
          - {id: a, input: c, filter: "x > 1"}
          - {id: b, input: a, filter: "x > 2"}
          - {id: c, input: b, filter: "x > 3"}
          - {id: d, input: d, filter: "x > 4"}
          - {id: e, input: a, filter: "x > 5"}
        sinks: {k: {input: src, type: stdout}}
        """));

    assertThat(errors).containsExactly(
        new SpecError("/operators/0/input", "cycle: a -> b -> c -> a"),
        new SpecError("/operators/3/input", "cycle: d -> d"));
  }

  @Test
  void operatorParts() {
    List<SpecError> errors = errors(job("""
        operators:
          - {id: nothing, input: src}
          - {id: w, input: src, filter: "a > 1", window: {type: session, gap: 1s}}
          - {id: g, input: src, aggregate: {n: "count(*)"}, select: {a: a}}
          - {id: r, input: src, keyBy: []}
          - {id: n, input: src, keyBy: [a, a], window: {type: tumbling, size: 1s},
             aggregate: {a: "count(*)", window_end: "max(b)"}}
        sinks: {k: {input: src, type: stdout}}
        """));

    assertThat(errors).containsExactly(
        new SpecError("/operators/0", "an operator needs at least one of filter, select, keyBy and window"),
        new SpecError("/operators/1/window/type", "a session window needs an aggregate: sessions are known only when "
            + "they close (a window without an aggregate assigns tumbling, sliding or cumulate windows to rows)"),
        new SpecError("/operators/1/filter",
            "filter cannot be combined with a window in one operator; put it in an operator before this one"),
        new SpecError("/operators/2/select",
            "select cannot be combined with an aggregate in one operator; put it in an operator before this one"),
        new SpecError("/operators/3/keyBy", "must name at least one field (an empty keyBy only makes sense with a window)"),
        new SpecError("/operators/4/keyBy/1", "'a' is listed twice"),
        new SpecError("/operators/4/aggregate/a", "'a' is a key field; choose another name"),
        new SpecError("/operators/4/aggregate/window_end", "'window_end' is a field of every window result; choose another name"));
  }

  @Test
  void badExpressionsCarryTheParsersMessage() {
    List<SpecError> errors = errors(job("""
        operators:
          - {id: f, input: src, filter: "price >", select: {ok: "a + 1", bad: "a +* b"}}
          - {id: w, input: f, keyBy: ok, window: {type: tumbling, size: 1s}, aggregate: {n: "median(x)"}}
        sinks: {k: {input: w, type: stdout}}
        """));

    assertThat(errors).extracting(SpecError::pointer)
        .containsExactly("/operators/0/filter", "/operators/0/select/bad", "/operators/1/aggregate/n");
    assertThat(errors).allSatisfy(e -> assertThat(e.message()).isNotBlank());
  }

  @Test
  void aWindowNeedsEventTimeUpstream() {
    assertThat(errors("""
        name: j
        sources: {src: {type: datagen}}
        operators:
          - {id: f, input: src, filter: "a > 1"}
          - {id: w, input: f, window: {type: tumbling, size: 1s}, aggregate: {n: "count(*)"}}
        sinks: {k: {input: w, type: stdout}}
        """)).containsExactly(
            new SpecError("/operators/1/window", "a window needs event time, but source 'src' declares no eventTime"));
  }

  @Test
  void upsertKafkaSinkNeedsKeyFields() {
    String kafka = "sinks: {k: {input: src, type: kafka, bootstrapServers: b, topic: t, delivery: upsert%s}}\n";
    String why = "is required for delivery: upsert: each result's Kafka key is the JSON object of these fields, so "
        + "that a replayed result overwrites its earlier copy; list the fields that identify a result, for a window "
        + "aggregate its keyBy fields plus window_start and window_end";

    assertThat(errors(job(kafka.formatted("")))).containsExactly(new SpecError("/sinks/k/keyFields", why));
    assertThat(errors(job(kafka.formatted(", keyFields: []"))))
        .containsExactly(new SpecError("/sinks/k/keyFields", why));
    assertThat(errors(job(kafka.formatted(", keyFields: [auction, window_start, window_end]")))).isEmpty();
  }

  @Test
  void transactionSettingsApplyOnlyToExactlyOnceAndTheTimeoutIsSetOnce() {
    assertThat(errors(job("sinks: {k: {input: src, type: kafka, bootstrapServers: b, topic: t, "
        + "transactionalIdPrefix: p, transactionTimeout: 5m}}\n"))).containsExactly(
            new SpecError("/sinks/k/transactionalIdPrefix", "applies only to delivery: exactly-once"),
            new SpecError("/sinks/k/transactionTimeout", "applies only to delivery: exactly-once"));
    assertThat(errors(job("sinks: {k: {input: src, type: kafka, bootstrapServers: b, topic: t, delivery: exactly-once, "
        + "transactionTimeout: 5m, properties: {transaction.timeout.ms: 300000}}}\n"))).containsExactly(
            new SpecError("/sinks/k/properties/transaction.timeout.ms", "set the transaction timeout once, with "
                + "transactionTimeout"));
    assertThat(errors(job("sinks: {k: {input: src, type: kafka, bootstrapServers: b, topic: t, delivery: exactly-once, "
        + "transactionalIdPrefix: orders, transactionTimeout: 5m}}\n"))).isEmpty();
  }

  @Test
  void kafkaSinkDeliveryAndTimeoutShapes() {
    assertThat(errors(job("sinks: {k: {input: src, type: kafka, bootstrapServers: b, topic: t, delivery: twice}}\n")))
        .containsExactly(
            new SpecError("/sinks/k/delivery", "'twice' is not one of: at-least-once, exactly-once, upsert"));
    assertThat(errors(job("sinks: {k: {input: src, type: kafka, bootstrapServers: b, topic: t, delivery: exactly-once, "
        + "transactionTimeout: soon}}\n"))).singleElement()
        .satisfies(e -> assertThat(e.pointer()).isEqualTo("/sinks/k/transactionTimeout"));
  }

  @Test
  void reportsShapeAndSemanticErrorsTogether() {
    assertThatThrownBy(() -> JobSpecs.parse("""
        name: Bad_Name
        parallelism: {initial: 0}
        sources: {src: {type: datagen, count: -1}}
        operators:
          - {id: f, input: nope, filtr: "a > 1"}
        sinks: {k: {input: f, type: stdout, path: x}}
        """))
        .isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.errors()).extracting(SpecError::pointer)
            .containsExactly("/sources/src/count", "/operators/0/filtr", "/sinks/k/path", "/name",
                "/parallelism", "/operators/0/input", "/operators/0"))
        .hasMessageContaining("invalid job spec (7 errors):\n/sources/src/count: must be greater than 0\n");
  }

  @Test
  void aFieldTheParserFoundMissingIsReportedOnce() {
    assertThat(errors("name: j\nsinks: {k: {input: x, type: stdout}}\n")).extracting(SpecError::pointer)
        .containsOnlyOnce("/sources");
    assertThat(errors("name: j\nsources: {}\nsinks: {k: {input: x, type: stdout}}\n"))
        .contains(new SpecError("/sources", "declare at least one source"));
  }

  @Test
  void aSecondYamlDocumentIsAnErrorNotSilentlyDropped() {
    String one = "name: j\nsources: {s: {type: datagen}}\nsinks: {k: {input: s, type: stdout}}\n";
    assertThat(errors(one + "---\nname: k\n")).containsExactly(new SpecError("", SpecParser.SECOND_DOCUMENT));
    assertThat(errors("---\n" + one)).as("a leading document marker").isEmpty();
    assertThat(errors(one + "...\n")).as("a document end marker").isEmpty();
  }

  @Test
  void loadsFromAFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path file = dir.resolve("job.yaml");
    java.nio.file.Files.writeString(file, resource("auction-activity.yaml"));

    assertThat(JobSpecs.load(file).name()).isEqualTo("auction-activity");
  }
}
