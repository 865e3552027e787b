package io.tributary.scheduler.metadata.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.scheduler.metadata.MetadataStoreContractTest;
import io.tributary.scheduler.metadata.MetadataStoreException;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The store contract against dynalite, started by this test as a node process; a table per test. */
class DynamoMetadataStoreIT extends MetadataStoreContractTest {
  private static final AtomicInteger TABLES = new AtomicInteger();
  private static Dynalite dynalite;
  private static DynamoDbClient client;

  @BeforeAll
  static void startDynalite() throws Exception {
    dynalite = Dynalite.start();
    client = DynamoClients.create(settings("unused"),
        StaticCredentialsProvider.create(AwsBasicCredentials.create("dummy", "dummy")));
  }

  @AfterAll
  static void stopDynalite() throws Exception {
    if (client != null) {
      client.close();
    }
    if (dynalite != null) {
      dynalite.close();
    }
  }

  private static DynamoSettings settings(String table) {
    return new DynamoSettings(table, Optional.of(URI.create(dynalite.endpoint())), Optional.of("us-east-1"), true);
  }

  @Override
  protected MetadataStore open() {
    String table = "metadata-" + TABLES.incrementAndGet();
    DynamoTables.createIfMissing(client, table, Duration.ofSeconds(30));
    return new DynamoMetadataStore(client, table);
  }

  @Override
  protected int randomOperations() {
    return 150;
  }

  @Test
  void creatingAnExistingTableIsANoOp() {
    store.put("jobs/a/spec", bytes("kept"), 0);
    String table = "metadata-" + TABLES.get();
    DynamoTables.createIfMissing(client, table, Duration.ofSeconds(30));
    assertThat(new DynamoMetadataStore(client, table).get("jobs/a/spec").map(Item::valueAsString)).contains("kept");
  }

  @Test
  void aMissingTableIsANonRetryableError() {
    MetadataStore missing = new DynamoMetadataStore(client, "no-such-table");
    assertThatThrownBy(() -> missing.get("jobs/a/spec"))
        .isInstanceOfSatisfying(MetadataStoreException.class, e -> assertThat(e.retryable()).isFalse())
        .hasMessageContaining("no-such-table");
  }

  @Test
  void pagesAreDynamoQueriesWithinOneGroup() {
    for (int i = 0; i < 5; i++) {
      store.put("projects/p/jobs/j" + i, bytes("j" + i), 0);
    }
    var first = store.query("projects/p/jobs/", Optional.empty(), 2);
    assertThat(first.items()).extracting(Item::key).containsExactly("projects/p/jobs/j0", "projects/p/jobs/j1");
    assertThat(first.continuation()).contains("projects/p/jobs/j1");
    var second = store.query("projects/p/jobs/", first.continuation(), 10);
    assertThat(second.items()).extracting(Item::key)
        .containsExactly("projects/p/jobs/j2", "projects/p/jobs/j3", "projects/p/jobs/j4");
    assertThat(second.continuation()).isEmpty();
  }
}
