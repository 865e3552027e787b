package io.tributary.scheduler.metadata.dynamo;

import io.tributary.scheduler.metadata.MetadataStoreException;
import java.time.Duration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.waiters.WaiterOverrideConfiguration;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * Creates the metadata table ({@link DynamoItems} layout, on-demand billing). Production tables
 * normally come from Terraform ({@code infra/}) with the same key schema; this is for local stacks
 * and tests.
 */
public final class DynamoTables {
  /** How long {@link DynamoMetadataStore#open} waits for a new table to become active. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  private DynamoTables() {}

  /**
   * Creates {@code table} unless it exists, then waits until it is active.
   *
   * @throws MetadataStoreException if it cannot be created or is not active within {@code timeout}
   */
  public static void createIfMissing(DynamoDbClient client, String table, Duration timeout) {
    try {
      if (!exists(client, table)) {
        create(client, table);
      }
      awaitActive(client, table, timeout);
    } catch (SdkException e) {
      throw new MetadataStoreException("cannot create DynamoDB table " + table + ": " + e.getMessage(), true, e);
    }
  }

  private static boolean exists(DynamoDbClient client, String table) {
    try {
      client.describeTable(r -> r.tableName(table));
      return true;
    } catch (ResourceNotFoundException e) {
      return false;
    }
  }

  private static void create(DynamoDbClient client, String table) {
    try {
      client.createTable(r -> r.tableName(table)
          .attributeDefinitions(
              attribute(DynamoItems.GROUP), attribute(DynamoItems.KEY))
          .keySchema(
              KeySchemaElement.builder().attributeName(DynamoItems.GROUP).keyType(KeyType.HASH).build(),
              KeySchemaElement.builder().attributeName(DynamoItems.KEY).keyType(KeyType.RANGE).build())
          .billingMode(BillingMode.PAY_PER_REQUEST));
    } catch (ResourceInUseException e) {
      // another replica created it first
    }
  }

  private static AttributeDefinition attribute(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
  }

  private static void awaitActive(DynamoDbClient client, String table, Duration timeout) {
    WaiterOverrideConfiguration polling = WaiterOverrideConfiguration.builder()
        .backoffStrategyV2(BackoffStrategy.fixedDelay(Duration.ofMillis(200)))
        .maxAttempts(Integer.MAX_VALUE)
        .waitTimeout(timeout)
        .build();
    try (DynamoDbWaiter waiter = DynamoDbWaiter.builder().client(client).overrideConfiguration(polling).build()) {
      waiter.waitUntilTableExists(r -> r.tableName(table)).matched().exception().ifPresent(e -> {
        throw new MetadataStoreException("DynamoDB table " + table + " did not become active: " + e, true, e);
      });
    }
  }
}
