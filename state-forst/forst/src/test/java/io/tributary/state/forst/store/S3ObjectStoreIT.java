package io.tributary.state.forst.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** The object-store contract against S3 (S3Proxy 4.1, in memory, in this JVM). */
class S3ObjectStoreIT extends ObjectStoreContract {
  private static final String BUCKET = "tributary-it";
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static S3ProxyServer server;

  @BeforeAll
  static void startS3() throws Exception {
    server = new S3ProxyServer();
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stopS3() throws Exception {
    server.close();
  }

  @Override
  ObjectStore newStore() {
    return server.store(BUCKET, "test-" + PREFIXES.incrementAndGet());
  }

  @Test
  void urlNamesBucketAndPrefix() {
    assertThat(store.url()).matches("s3://tributary-it/test-\\d+/");
  }

  @Test
  void prefixesIsolateStores() throws Exception {
    try (ObjectStore other = newStore()) {
      other.put("same", bytes("other"));
      store.put("same", bytes("mine"));
      assertThat(store.getBytes("same")).isEqualTo(bytes("mine"));
      assertThat(other.list("")).containsExactly("same");
    }
  }

  @Test
  void wrongCredentialsSayWhatToCheck() {
    try (S3ObjectStore bad = S3ObjectStore.builder().bucket(BUCKET).endpoint(server.endpoint()).pathStyle(true)
        .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create("nobody", "wrong"))).build()) {
      // a GET: S3Proxy may close the connection on a rejected PUT before reading its body, and then
      // the client sees no response at all rather than the 403
      assertThatThrownBy(() -> bad.getBytes("x"))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("s3://" + BUCKET + "/x")
          .hasMessageContaining("HTTP 403")
          .hasMessageContaining("credentials");
    }
  }

  @Test
  void missingBucketSaysCreateIt() {
    try (S3ObjectStore missing = server.store("no-such-bucket", "")) {
      assertThatThrownBy(() -> missing.getBytes("x"))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("s3://no-such-bucket/x")
          .hasMessageContaining("create bucket 'no-such-bucket'");
    }
  }

  @Test
  void unreachableEndpointSaysCheckTheEndpoint() {
    try (S3ObjectStore dead = S3ObjectStore.builder().bucket(BUCKET).endpoint(java.net.URI.create("http://127.0.0.1:1"))
        .pathStyle(true).credentials(S3ProxyServer.credentials()).build()) {
      assertThatThrownBy(() -> dead.exists("x"))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("TRIBUTARY_S3_ENDPOINT");
    }
  }

  @Test
  void openByUrlUsesSettingsAndTheDefaultCredentialChain() throws Exception {
    System.setProperty("aws.accessKeyId", S3ProxyServer.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", S3ProxyServer.SECRET_KEY);
    Map<String, String> env = Map.of("TRIBUTARY_S3_ENDPOINT", server.endpoint().toString(),
        "TRIBUTARY_S3_PATH_STYLE", "true", "AWS_REGION", "eu-west-1");
    try (ObjectStore byUrl = ObjectStores.open("s3://" + BUCKET + "/by-url", env::get);
        ObjectStore direct = server.store(BUCKET, "by-url/")) {
      byUrl.put("k", bytes("v"));
      assertThat(byUrl.url()).isEqualTo("s3://" + BUCKET + "/by-url/");
      assertThat(direct.getBytes("k")).isEqualTo(bytes("v"));
    } finally {
      System.clearProperty("aws.accessKeyId");
      System.clearProperty("aws.secretAccessKey");
    }
  }
}
