package io.tributary.scheduler.metadata.dynamo;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a {@link DynamoMetadataStore} keeps its items. Credentials always come from the AWS
 * default chain (environment, profile, container or instance role) unless a client is passed in.
 *
 * @param table the table name
 * @param endpoint an endpoint override (dynalite, DynamoDB Local, a VPC endpoint); empty for AWS
 * @param region the region; empty for the SDK's default region chain ({@code AWS_REGION}, profile)
 * @param createTable whether to create the table on open if it does not exist
 */
public record DynamoSettings(
    String table, Optional<URI> endpoint, Optional<String> region, boolean createTable) {
  /** Environment variable naming the table; its presence selects the DynamoDB store. */
  public static final String TABLE_ENV = "TRIBUTARY_METADATA_DYNAMODB_TABLE";
  /** Environment variable with an endpoint override URL. */
  public static final String ENDPOINT_ENV = "TRIBUTARY_METADATA_DYNAMODB_ENDPOINT";
  /** Environment variable with the region; when unset the SDK reads {@code AWS_REGION}. */
  public static final String REGION_ENV = "TRIBUTARY_METADATA_DYNAMODB_REGION";
  /** Environment variable: {@code true} to create the table if missing (default {@code false}). */
  public static final String CREATE_TABLE_ENV = "TRIBUTARY_METADATA_DYNAMODB_CREATE_TABLE";

  public DynamoSettings {
    if (table == null || table.isBlank()) {
      throw new IllegalArgumentException("a DynamoDB table name is required");
    }
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(region, "region");
  }

  /**
   * The settings named by {@code env} (normally {@link System#getenv()}), or empty if {@link
   * #TABLE_ENV} is not set.
   */
  public static Optional<DynamoSettings> fromEnvironment(Map<String, String> env) {
    return nonBlank(env.get(TABLE_ENV)).map(table -> new DynamoSettings(
        table,
        nonBlank(env.get(ENDPOINT_ENV)).map(URI::create),
        nonBlank(env.get(REGION_ENV)),
        Boolean.parseBoolean(env.getOrDefault(CREATE_TABLE_ENV, "false").trim())));
  }

  private static Optional<String> nonBlank(String value) {
    return Optional.ofNullable(value).map(String::trim).filter(v -> !v.isEmpty());
  }
}
