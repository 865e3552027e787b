package io.tributary.state.forst.store;

import java.net.URI;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** An in-memory S3Proxy on a free local port, with fixed credentials, for integration tests. */
final class S3ProxyServer implements AutoCloseable {
  static final String ACCESS_KEY = "tributary-access";
  static final String SECRET_KEY = "tributary-secret";

  private final S3Proxy proxy;

  S3ProxyServer() throws Exception {
    proxy = S3Proxy.builder()
        .blobStore(new TransientNio2BlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
        .build();
    proxy.start(); // Jetty's start() returns once the connector listens
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + proxy.getPort());
  }

  static StaticCredentialsProvider credentials() {
    return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
  }

  /** A store on this server; {@code credentials} null means the SDK default chain. */
  S3ObjectStore store(String bucket, String prefix) {
    return S3ObjectStore.builder().bucket(bucket).prefix(prefix).endpoint(endpoint()).pathStyle(true)
        .credentials(credentials()).build();
  }

  void createBucket(String bucket) {
    try (S3ObjectStore s = store(bucket, "")) {
      s.client().createBucket(b -> b.bucket(bucket));
    }
  }

  @Override
  public void close() throws Exception {
    proxy.stop();
  }
}
