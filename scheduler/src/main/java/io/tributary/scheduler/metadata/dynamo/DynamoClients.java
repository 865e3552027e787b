package io.tributary.scheduler.metadata.dynamo;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/** Builds DynamoDB clients on the JDK's HTTP client, as {@link DynamoSettings} say. */
public final class DynamoClients {
  private DynamoClients() {}

  /** A client with credentials from the AWS default chain. */
  public static DynamoDbClient create(DynamoSettings settings) {
    return create(settings, DefaultCredentialsProvider.builder().build());
  }

  /** A client with the given credentials (static ones for tests against dynalite). */
  public static DynamoDbClient create(DynamoSettings settings, AwsCredentialsProvider credentials) {
    DynamoDbClientBuilder builder = DynamoDbClient.builder()
        .httpClientBuilder(ApacheHttpClient.builder())
        .credentialsProvider(credentials);
    settings.endpoint().ifPresent(builder::endpointOverride);
    settings.region().map(Region::of).ifPresent(builder::region);
    return builder.build();
  }
}
