package io.tributary.connectors;

import io.tributary.connect.ConnectorException;
import io.tributary.connect.SinkConnector;
import io.tributary.connect.SinkWriter;
import io.tributary.connect.SourceConnector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.connectors.datagen.DatagenSource;
import io.tributary.connectors.debug.BlackholeSink;
import io.tributary.connectors.debug.StdoutSink;
import io.tributary.connectors.file.FileSink;
import io.tributary.connectors.file.FileSource;
import io.tributary.connectors.kafka.KafkaSink;
import io.tributary.connectors.kafka.KafkaSource;
import io.tributary.connectors.nexmark.NexmarkSource;
import io.tributary.plan.SinkPlan;
import io.tributary.plan.SourcePlan;
import io.tributary.stream.Record;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectorsTest {
  @Test
  void buildsEveryTypeFromItsProperties() {
    assertThat(Connectors.source(source("file", Map.of("path", "/tmp/x")))).isInstanceOf(FileSource.class);
    assertThat(Connectors.source(source("datagen", Map.of("count", 10L, "interval", "5ms"))))
        .isInstanceOf(DatagenSource.class);
    assertThat(Connectors.source(source("nexmark", Map.of("kind", "BID", "events", 5, "eventRate", 2.5))))
        .isInstanceOf(NexmarkSource.class);
    assertThat(Connectors.source(source("kafka", Map.of("bootstrapServers", "localhost:1", "topic", "t",
        "startFrom", "latest", "properties", Map.of("fetch.min.bytes", 1L))))).isInstanceOf(KafkaSource.class);
    assertThat(Connectors.sink(sink("file", Map.of("path", "/tmp/x")))).isInstanceOf(FileSink.class);
    assertThat(Connectors.sink(sink("kafka", Map.of("bootstrapServers", "h:1", "topic", "t",
        "keyFields", List.of("a"))))).isInstanceOf(KafkaSink.class);
    assertThat(Connectors.sink(sink("stdout", Map.of()))).isInstanceOf(StdoutSink.class);
    assertThat(Connectors.sink(sink("blackhole", Map.of()))).isInstanceOf(BlackholeSink.class);
  }

  @Test
  void datagenPropertiesReachTheRecords() {
    SourceConnector gen = Connectors.source(
        source("datagen", Map.of("count", 3L, "keys", 1L, "interval", "1s", "startTime", 5000L)));
    assertThat(CollectingOutput.readAll(gen, 1, 10).records)
        .extracting(r -> r.get("ts"), r -> r.get("key"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(5000L, 0L),
            org.assertj.core.groups.Tuple.tuple(6000L, 0L),
            org.assertj.core.groups.Tuple.tuple(7000L, 0L));
    assertThat(gen.bounded()).isTrue();
    assertThat(Connectors.source(source("datagen", Map.of())).bounded()).isFalse();
  }

  @Test
  void errorsNameTheConnectorAndWhatToFix() {
    expectError(() -> Connectors.source(source("csv", Map.of())), "source 'src': unknown type 'csv'");
    expectError(() -> Connectors.sink(sink("s3", Map.of())), "sink 'snk': unknown type 's3'");
    expectError(() -> Connectors.source(source("file", Map.of())), "file source 'src': property 'path' is required");
    expectError(() -> Connectors.source(source("datagen", Map.of("cuont", 5L))), "unknown property 'cuont'");
    expectError(() -> Connectors.source(source("datagen", Map.of("count", "many"))),
        "property 'count' must be a whole number");
    expectError(() -> Connectors.source(source("datagen", Map.of("keys", 0L))), "'keys' must be at least 1");
    expectError(() -> Connectors.source(source("datagen", Map.of("interval", "soon"))), "property 'interval'");
    expectError(() -> Connectors.source(source("nexmark", Map.of("kind", "bids"))),
        "'kind' must be one of [all, person, auction, bid]");
    expectError(() -> Connectors.source(source("nexmark", Map.of("eventRate", 0L))), "greater than 0");
    expectError(() -> Connectors.source(source("kafka", Map.of("topic", "t"))), "'bootstrapServers' is required");
    expectError(() -> Connectors.source(source("kafka", Map.of("bootstrapServers", "h:1", "topic", "t",
        "startFrom", "middle"))), "'startFrom' must be one of [earliest, latest]");
    expectError(() -> Connectors.sink(sink("kafka", Map.of("bootstrapServers", "h:1", "topic", "t",
        "keyFields", 3L))), "'keyFields' must be a list");
    expectError(() -> Connectors.sink(sink("kafka", Map.of("bootstrapServers", "h:1", "topic", "t",
        "delivery", "exactly-twice"))), "'delivery' must be one of [at-least-once, exactly-once, upsert]");
    expectError(() -> Connectors.sink(sink("kafka", Map.of("bootstrapServers", "h:1", "topic", "t",
        "transactionalIdPrefix", "x"))), "'transactionalIdPrefix' needs delivery: exactly-once");
    expectError(() -> Connectors.sink(new SinkPlan("snk", "file", "csv", Map.of("path", "x"))),
        "format 'csv' is not supported; use json");
  }

  @Test
  void aFileSinkWritesAChangelogOnlyWhenAsked(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    Record plain = Record.of(Map.of("n", 1L), Record.NO_TIMESTAMP);
    Record update = Record.of(new java.util.LinkedHashMap<>(Map.of("_op", "update")), Record.NO_TIMESTAMP);
    write(new SinkPlan("a", "file", "json", Map.of("path", dir.resolve("a").toString(), "changelog", true)), plain);
    write(new SinkPlan("b", "file", "json", Map.of("path", dir.resolve("b").toString(), "changelog", true),
        List.of("n")), update);
    assertThat(java.nio.file.Files.readAllLines(dir.resolve("a/part-0-0-0.jsonl")))
        .as("an append-only stream in changelog form").containsExactly("{\"_op\":\"insert\",\"n\":1}");
    assertThat(java.nio.file.Files.readAllLines(dir.resolve("b/part-0-0-0.jsonl")))
        .as("an upsert stream as it is").containsExactly("{\"_op\":\"update\"}");
    expectError(() -> Connectors.sink(new SinkPlan("c", "file", "json", Map.of("path", "x"), List.of("n"))),
        "file sink 'c': its input is an upsert stream: write it with changelog: true");
    expectError(() -> Connectors.sink(new SinkPlan("d", "kafka", "json", Map.of("bootstrapServers", "h:1",
        "topic", "t"), List.of("n"))), "kafka sink 'd': its input is an upsert stream: it needs delivery: upsert");
    expectError(() -> Connectors.sink(sink("file", Map.of("path", "x", "changelog", "yes"))),
        "property 'changelog' must be true or false");
  }

  private static void write(SinkPlan plan, Record record) {
    try (SinkWriter w = Connectors.sink(plan).open(0, 1)) {
      w.write(record);
      w.commit();
    }
  }

  @Test
  void blackholeCountsPerSinkId() {
    BlackholeSink.reset("counted");
    SinkConnector sink = Connectors.sink(new SinkPlan("counted", "blackhole", null, Map.of()));
    try (SinkWriter a = sink.open(0, 2); SinkWriter b = sink.open(1, 2)) {
      Record r = Record.of(Map.of("x", 1L), Record.NO_TIMESTAMP);
      a.write(r);
      b.write(r);
      b.write(r);
    }
    assertThat(BlackholeSink.count("counted")).isEqualTo(3);
    assertThat(BlackholeSink.count("never-used")).isZero();
  }

  private static void expectError(Runnable build, String message) {
    assertThatThrownBy(build::run).isInstanceOf(ConnectorException.class).hasMessageContaining(message);
  }

  private static SourcePlan source(String type, Map<String, Object> props) {
    return new SourcePlan("src", type, "json", null, 0, null, props);
  }

  private static SinkPlan sink(String type, Map<String, Object> props) {
    return new SinkPlan("snk", type, "json", props);
  }
}
