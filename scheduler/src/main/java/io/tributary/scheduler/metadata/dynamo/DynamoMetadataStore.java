package io.tributary.scheduler.metadata.dynamo;

import static io.tributary.scheduler.metadata.dynamo.DynamoItems.GROUP;
import static io.tributary.scheduler.metadata.dynamo.DynamoItems.KEY;
import static io.tributary.scheduler.metadata.dynamo.DynamoItems.VERSION;

import io.tributary.scheduler.metadata.ConflictException;
import io.tributary.scheduler.metadata.Item;
import io.tributary.scheduler.metadata.Keys;
import io.tributary.scheduler.metadata.MetadataStore;
import io.tributary.scheduler.metadata.MetadataStoreException;
import io.tributary.scheduler.metadata.Page;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * A {@link MetadataStore} in one DynamoDB table, for a control plane with several replicas.
 *
 * <p>Layout (see {@link DynamoItems}): partition key {@code group} = the key's first two segments,
 * sort key {@code key} = the whole key, so that {@code query(prefix)} is a strongly consistent
 * Query with {@code begins_with} inside one partition. Every write is one PutItem or DeleteItem
 * with a ConditionExpression on {@code version} ({@code attribute_not_exists} for creation): no
 * transactions, so dynalite serves as a test double. A failed condition becomes a {@link
 * ConflictException}; throttling, 5xx and network errors a retryable {@link
 * MetadataStoreException}; anything else (missing table, bad request) a non-retryable one.
 *
 * <p>Thread-safe (the SDK client is).
 */
public final class DynamoMetadataStore implements MetadataStore {
  private final DynamoDbClient client;
  private final String table;
  private final boolean ownsClient;
  private volatile boolean closed;

  /** A store on {@code table} through {@code client}, which the caller keeps and closes. */
  public DynamoMetadataStore(DynamoDbClient client, String table) {
    this(client, table, false);
  }

  private DynamoMetadataStore(DynamoDbClient client, String table, boolean ownsClient) {
    this.client = client;
    this.table = table;
    this.ownsClient = ownsClient;
  }

  /**
   * Opens a store as {@code settings} say, with a client of its own (credentials from the default
   * chain), creating the table first if the settings ask for it.
   */
  public static DynamoMetadataStore open(DynamoSettings settings) {
    DynamoMetadataStore store = new DynamoMetadataStore(DynamoClients.create(settings), settings.table(), true);
    if (settings.createTable()) {
      DynamoTables.createIfMissing(store.client, settings.table(), DynamoTables.DEFAULT_TIMEOUT);
    }
    return store;
  }

  @Override
  public Optional<Item> get(String key) {
    Keys.check(key);
    Map<String, AttributeValue> found = call(key, () -> client.getItem(r -> r
        .tableName(table).key(DynamoItems.primaryKey(key)).consistentRead(true)).item());
    return found == null || found.isEmpty() ? Optional.empty() : Optional.of(DynamoItems.item(found));
  }

  @Override
  public long put(String key, byte[] value, long expectedVersion) {
    Item item = new Item(key, MetadataStore.checkExpected(expectedVersion) + 1, value);
    try {
      call(key, () -> expectedVersion == 0
          ? client.putItem(r -> r.tableName(table).item(DynamoItems.attributes(item))
              .conditionExpression("attribute_not_exists(#k)")
              .expressionAttributeNames(Map.of("#k", KEY))
              .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
          : client.putItem(r -> r.tableName(table).item(DynamoItems.attributes(item))
              .conditionExpression("#v = :expected")
              .expressionAttributeNames(Map.of("#v", VERSION))
              .expressionAttributeValues(Map.of(":expected", DynamoItems.number(expectedVersion)))
              .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
    } catch (ConditionalCheckFailedException e) {
      throw conflict(key, expectedVersion, e);
    }
    return item.version();
  }

  @Override
  public void delete(String key, long expectedVersion) {
    Keys.check(key);
    if (expectedVersion < 1) {
      throw new IllegalArgumentException("delete needs the item's version, at least 1: " + expectedVersion);
    }
    try {
      call(key, () -> client.deleteItem(r -> r.tableName(table).key(DynamoItems.primaryKey(key))
          .conditionExpression("#v = :expected")
          .expressionAttributeNames(Map.of("#v", VERSION))
          .expressionAttributeValues(Map.of(":expected", DynamoItems.number(expectedVersion)))
          .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
    } catch (ConditionalCheckFailedException e) {
      throw conflict(key, expectedVersion, e);
    }
  }

  private ConflictException conflict(String key, long expected, ConditionalCheckFailedException e) {
    long actual;
    if (e.hasItem() && !e.item().isEmpty()) {
      actual = DynamoItems.version(e.item());
    } else {
      // older DynamoDB look-alikes do not return the item: read it (it may have moved on since)
      actual = get(key).map(Item::version).orElse(0L);
    }
    return new ConflictException(key, expected, actual, e);
  }

  @Override
  public Page query(String prefix, Optional<String> continuation, int limit) {
    Keys.checkPrefix(prefix);
    MetadataStore.checkLimit(limit);
    QueryRequest.Builder request = QueryRequest.builder().tableName(table).consistentRead(true).limit(limit)
        .keyConditionExpression("#g = :g AND begins_with(#k, :prefix)")
        .expressionAttributeNames(Map.of("#g", GROUP, "#k", KEY))
        .expressionAttributeValues(Map.of(
            ":g", DynamoItems.string(Keys.group(prefix)), ":prefix", DynamoItems.string(prefix)));
    continuation.ifPresent(after -> request.exclusiveStartKey(DynamoItems.primaryKey(checkContinuation(prefix, after))));
    QueryResponse response = call(prefix, () -> client.query(request.build()));
    List<Item> items = response.items().stream().map(DynamoItems::item).toList();
    Map<String, AttributeValue> last = response.lastEvaluatedKey();
    return new Page(items, last == null || last.isEmpty() ? Optional.empty() : Optional.of(last.get(KEY).s()));
  }

  private static String checkContinuation(String prefix, String after) {
    if (!after.startsWith(prefix)) {
      throw new IllegalArgumentException("continuation " + after + " is not from a query of " + prefix);
    }
    return Keys.check(after);
  }

  private <T> T call(String key, Supplier<T> request) {
    if (closed) {
      throw new MetadataStoreException("metadata store is closed", false);
    }
    try {
      return request.get();
    } catch (ConditionalCheckFailedException e) {
      throw e;
    } catch (SdkException e) {
      throw new MetadataStoreException(
          "DynamoDB table " + table + ", " + key + ": " + e.getMessage(), retryable(e), e);
    }
  }

  private static boolean retryable(SdkException e) {
    if (e instanceof AwsServiceException service) {
      return service.isThrottlingException() || service.statusCode() >= 500;
    }
    return e instanceof SdkClientException;
  }

  @Override
  public void close() {
    closed = true;
    if (ownsClient) {
      client.close();
    }
  }
}
