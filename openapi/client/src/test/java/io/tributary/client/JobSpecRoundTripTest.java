package io.tributary.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.client.model.BlackholeSink;
import io.tributary.client.model.CheckpointSettings;
import io.tributary.client.model.DatagenSource;
import io.tributary.client.model.EventTime;
import io.tributary.client.model.FileSink;
import io.tributary.client.model.FileSource;
import io.tributary.client.model.JobApply;
import io.tributary.client.model.JobSpec;
import io.tributary.client.model.KafkaSink;
import io.tributary.client.model.KafkaSource;
import io.tributary.client.model.NexmarkSource;
import io.tributary.client.model.OperatorSpec;
import io.tributary.client.model.Parallelism;
import io.tributary.client.model.ParallelismRange;
import io.tributary.client.model.StdoutSink;
import io.tributary.client.model.WindowSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Job specs survive the generated client's model classes: read into {@link JobSpec} with the
 * client's own ObjectMapper and written back, every field of the document is still there with
 * its value. The only fields the models may add are those the contract gives a default.
 */
class JobSpecRoundTripTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper CLIENT = ApiClient.createDefaultObjectMapper();

  @Test
  void clicksPerUserExampleRoundTrips() throws IOException {
    JsonNode document = yaml(Path.of(System.getProperty("tributary.examples"), "clicks-per-user.yaml"));

    JobSpec spec = CLIENT.treeToValue(document, JobSpec.class);

    assertThat(spec.getName()).isEqualTo("clicks-per-user");
    assertThat(spec.getParallelism().getActualInstance()).isEqualTo(2);
    assertThat(spec.getSources().get("clicks")).isInstanceOfSatisfying(FileSource.class, s -> {
      assertThat(s.getPath()).isEqualTo("examples/data/clicks.jsonl");
      assertThat(s.getEventTime().getMaxOutOfOrderness()).isEqualTo("2s");
      assertThat(s.getDeadLetterOutput()).isEqualTo("bad-clicks");
    });
    OperatorSpec perUser = spec.getOperators().get(1);
    assertThat(perUser.getKeyBy()).containsExactly("user");
    assertThat(perUser.getWindow().getType()).isEqualTo(WindowSpec.TypeEnum.TUMBLING);
    assertThat(perUser.getAggregate()).containsExactly(
        Map.entry("views", "count(*)"), Map.entry("avg_ms", "avg(ms)"), Map.entry("max_ms", "max(ms)"));
    assertThat(spec.getSinks().get("console")).isInstanceOf(StdoutSink.class);
    assertThat(spec.getSinks().get("late")).isInstanceOfSatisfying(FileSink.class,
        s -> assertThat(s.getInput()).isEqualTo("late-clicks"));
    assertRoundTrips(document, spec);
  }

  @Test
  void hotAuctionsExampleRoundTrips() throws IOException {
    JsonNode document = yaml(Path.of(System.getProperty("tributary.examples"), "hot-auctions.yaml"));

    JobSpec spec = CLIENT.treeToValue(document, JobSpec.class);

    assertThat(spec.getSources().get("bids")).isInstanceOfSatisfying(NexmarkSource.class, s -> {
      assertThat(s.getKind()).isEqualTo(NexmarkSource.KindEnum.BID);
      assertThat(s.getEvents()).isEqualTo(2_000_000L);
      assertThat(s.getMaxRecordsPerSecond()).isEqualTo(20_000.0);
    });
    assertRoundTrips(document, spec);
  }

  @Test
  void specWithEveryFieldRoundTrips() throws IOException {
    JsonNode document;
    try (var in = getClass().getResourceAsStream("/specs/every-field.yaml")) {
      document = YAML.readTree(in);
    }

    JobSpec spec = CLIENT.treeToValue(document, JobSpec.class);

    assertThat(spec.getParallelism().getActualInstance()).isInstanceOfSatisfying(ParallelismRange.class, p -> {
      assertThat(p.getInitial()).isEqualTo(2);
      assertThat(p.getMin()).isEqualTo(1);
      assertThat(p.getMax()).isEqualTo(8);
    });
    assertThat(spec.getCheckpoints().getMode()).isEqualTo(CheckpointSettings.ModeEnum.AT_LEAST_ONCE);
    assertThat(spec.getSources().get("generated")).isInstanceOfSatisfying(DatagenSource.class,
        s -> assertThat(s.getSeed()).isEqualTo(-7L));
    assertThat(spec.getSources().get("orders")).isInstanceOfSatisfying(KafkaSource.class,
        s -> assertThat(s.getProperties()).containsEntry("isolation.level", "read_committed"));
    assertThat(spec.getSinks().get("out")).isInstanceOfSatisfying(KafkaSink.class,
        s -> assertThat(s.getDelivery()).isEqualTo(KafkaSink.DeliveryEnum.AT_LEAST_ONCE));
    assertThat(spec.getSinks().get("everything-out")).isInstanceOf(BlackholeSink.class);
    assertThat(spec.getOperators().get(3).getWindow().getGap()).isEqualTo("1m");
    assertRoundTrips(document, spec);
  }

  @Test
  void specBuiltWithTheModelsCarriesEachConnectorsType() throws IOException {
    JobSpec spec = new JobSpec()
        .name("built")
        .parallelism(new Parallelism(new ParallelismRange().initial(1).max(4)))
        .putSourcesItem("orders", new KafkaSource().bootstrapServers("localhost:9092").topic("orders")
            .startFrom(KafkaSource.StartFromEnum.EARLIEST).eventTime(new EventTime().field("ts")))
        .addOperatorsItem(new OperatorSpec().id("big").input("orders").filter("amount > 100"))
        .putSinksItem("out", new FileSink().path("out/big").input("big"));

    JsonNode json = CLIENT.readTree(CLIENT.writeValueAsString(new JobApply().spec(spec)));

    assertThat(json.at("/spec/sources/orders/type").asText()).isEqualTo("kafka");
    assertThat(json.at("/spec/sinks/out/type").asText()).isEqualTo("file");
    assertThat(json.at("/spec/parallelism/max").asInt()).isEqualTo(4);
    assertThat(json.at("/spec/parallelism/min").isMissingNode()).isTrue();
    JobSpec read = CLIENT.treeToValue(json, JobApply.class).getSpec();
    assertThat(read.getSources().get("orders")).isInstanceOf(KafkaSource.class);
    assertThat(read.getSinks().get("out")).isInstanceOf(FileSink.class);
    assertThat(CLIENT.valueToTree(read).equals(json.get("spec"))).as("the same JSON once read back").isTrue();
  }

  private static JsonNode yaml(Path path) throws IOException {
    return YAML.readTree(Files.readString(path));
  }

  /** Writes {@code spec} back and checks it against {@code document}, field by field. */
  private static void assertRoundTrips(JsonNode document, JobSpec spec) throws IOException {
    JsonNode written = CLIENT.readTree(CLIENT.writeValueAsString(spec));
    assertThat(JsonDiff.lostOrChanged(document, written)).as("differences after the round trip").isEmpty();
    assertThat(CLIENT.treeToValue(written, JobSpec.class)).isEqualTo(spec);
  }
}
