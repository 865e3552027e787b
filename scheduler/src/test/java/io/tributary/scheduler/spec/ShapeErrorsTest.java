package io.tributary.scheduler.spec;

import static io.tributary.scheduler.spec.SpecTexts.shapeErrors;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each kind of shape error, with its pointer. */
class ShapeErrorsTest {
  private static final String SINKS = "sinks: {k: {input: src, type: stdout}}\n";

  private static String withSource(String source) {
    return "name: j\nsources:\n  src: " + source + "\n" + SINKS;
  }

  private static String withOperator(String operator) {
    return "name: j\nsources: {src: {type: datagen}}\noperators:\n  - " + operator + "\n" + SINKS;
  }

  @Test
  void unknownFieldSuggestsTheClosestName() {
    assertThat(shapeErrors(withOperator("{id: w, input: src, window: {type: tumbling, sizee: 10s}}")))
        .contains(new SpecError("/operators/0/window/sizee", "unknown field 'sizee'; did you mean 'size'?"));
  }

  @Test
  void unknownFieldFarFromAnyNameListsTheKnownOnes() {
    assertThat(shapeErrors("name: j\nzzzzzz: 1\nsources: {src: {type: datagen}}\n" + SINKS))
        .singleElement().satisfies(e -> {
          assertThat(e.pointer()).isEqualTo("/zzzzzz");
          assertThat(e.message()).startsWith("unknown field 'zzzzzz'; known fields: name, parallelism");
        });
  }

  @Test
  void unknownTypeSpecificPropertyIsAnError() {
    assertThat(shapeErrors(withSource("{type: file, path: in, topic: t}")))
        .containsExactly(new SpecError("/sources/src/topic", "unknown field 'topic'; known fields: type, format, eventTime,"
            + " maxRecordsPerSecond, deadLetterOutput, path"));
  }

  @Test
  void wrongTypes() {
    assertThat(shapeErrors("name: [a]\nparallelism: two\nmaxParallelism: 1.5\nsources: {src: {type: datagen}}\n" + SINKS))
        .containsExactly(
            new SpecError("/name", "must be a string, found a list"),
            new SpecError("/parallelism", "must be an integer or {initial, min, max}, found a string"),
            new SpecError("/maxParallelism", "must be an integer, found a number"));
  }

  @Test
  void missingRequiredFields() {
    assertThat(shapeErrors("sources: {src: {type: kafka}}\noperators:\n  - {filter: x}\nsinks: {k: {type: file}}\n"))
        .containsExactly(
            new SpecError("/name", "is required"),
            new SpecError("/sources/src/bootstrapServers", "is required for this type"),
            new SpecError("/sources/src/topic", "is required for this type"),
            new SpecError("/operators/0/id", "is required"),
            new SpecError("/operators/0/input", "is required"),
            new SpecError("/sinks/k/input", "is required"),
            new SpecError("/sinks/k/path", "is required for this type"));
  }

  @Test
  void badEnumValuesListTheAllowedOnes() {
    assertThat(shapeErrors(withSource("{type: kafak}")))
        .containsExactly(new SpecError("/sources/src/type",
            "'kafak' is not one of: file, datagen, nexmark, kafka; did you mean 'kafka'?"));
    assertThat(shapeErrors("name: j\nstate: {backend: rocks}\ncheckpoints: {interval: 1s, mode: once}\n"
        + "sources: {src: {type: nexmark, kind: bids}}\n" + SINKS))
        .containsExactly(
            new SpecError("/checkpoints/mode", "'once' is not one of: exactly-once, at-least-once"),
            new SpecError("/state/backend", "'rocks' is not one of: heap, forst"),
            new SpecError("/sources/src/kind", "'bids' is not one of: all, person, auction, bid; did you mean 'bid'?"));
  }

  @Test
  void badDurations() {
    assertThat(shapeErrors(withOperator("{id: w, input: src, window: {type: tumbling, size: 0s, allowedLateness: soon}}")))
        .containsExactly(
            new SpecError("/operators/0/window/size", "must be a positive duration such as 10s"),
            new SpecError("/operators/0/window/allowedLateness", "must be a duration such as 10s, not 'soon'"));
    assertThat(shapeErrors(withSource("{type: datagen, interval: 10 seconds, eventTime: {field: t, idleTimeout: -5}}")))
        .containsExactly(
            new SpecError("/sources/src/eventTime/idleTimeout", "must be a positive duration such as 10s, not '-5'"),
            new SpecError("/sources/src/interval", "must be a positive duration such as 10s, not '10 seconds'"));
  }

  @Test
  void windowShapeFieldsDependOnTheType() {
    assertThat(shapeErrors(withOperator("{id: w, input: src, window: {type: tumbling, size: 1s, gap: 1s}}")))
        .containsExactly(new SpecError("/operators/0/window/gap",
            "does not apply to a tumbling window; it is for session windows"));
    assertThat(shapeErrors(withOperator("{id: w, input: src, window: {type: sliding, size: 1s}}")))
        .containsExactly(new SpecError("/operators/0/window/slide", "is required for a sliding window"));
    assertThat(shapeErrors(withOperator("{id: w, input: src, window: {type: sliding, size: 1s, slide: 2s}}")))
        .containsExactly(new SpecError("/operators/0/window/slide", "must not be longer than size"));
    assertThat(shapeErrors(withOperator("{id: w, input: src, window: {size: 1s}}")))
        .containsExactly(new SpecError("/operators/0/window/type", "is required; one of: tumbling, sliding, session, cumulate"));
  }

  @Test
  void badNumbersAndLists() {
    assertThat(shapeErrors(withSource("{type: datagen, count: 0, keys: many, maxRecordsPerSecond: -1}")))
        .containsExactly(
            new SpecError("/sources/src/maxRecordsPerSecond", "must be a number greater than 0"),
            new SpecError("/sources/src/count", "must be greater than 0"),
            new SpecError("/sources/src/keys", "must be an integer, found a string"));
    assertThat(shapeErrors(withOperator("{id: k, input: src, keyBy: [a, 3]}")))
        .containsExactly(new SpecError("/operators/0/keyBy/1", "must be a non-empty string"));
  }

  @Test
  void pointersEscapeSlashesAndTildes() {
    assertThat(shapeErrors("name: j\nsources: {a/b~c: {type: file}}\n" + SINKS))
        .containsExactly(new SpecError("/sources/a~1b~0c/path", "is required for this type"));
  }
}
