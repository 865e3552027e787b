package io.tributary.state.forst.store;

import io.tributary.state.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An {@link ObjectStore} in an S3 bucket (or an S3-compatible service) through the AWS SDK v2 with
 * the URL-connection HTTP client. Object {@code name} is the key {@code prefix + name}.
 *
 * <p>Guarantees: S3 PUTs are atomic, so readers never see a partial object; {@link #putIfAbsent}
 * is a conditional PUT with {@code If-None-Match: *} (HTTP 412 means the object existed, unless it
 * holds exactly the bytes being written: an SDK retry of a PUT that had succeeded); reading an
 * absent object throws {@link java.nio.file.NoSuchFileException}; every SDK failure becomes an
 * {@link IOException} naming the bucket and key and what to check. Large files are uploaded with a
 * single PUT from the file (S3 allows up to 5 GiB). Thread-safe.
 */
public final class S3ObjectStore implements ObjectStore {
  private final S3Client client;
  private final boolean ownsClient;
  private final String bucket;
  private final String prefix;
  private final S3Errors errors;

  /**
   * Wraps an existing client, which the caller keeps owning (it is not closed by {@link #close}).
   *
   * @param prefix key prefix: empty or ending in {@code /}
   */
  public S3ObjectStore(S3Client client, String bucket, String prefix) {
    this(client, false, bucket, prefix);
  }

  private S3ObjectStore(S3Client client, boolean ownsClient, String bucket, String prefix) {
    this.client = Objects.requireNonNull(client, "client");
    this.ownsClient = ownsClient;
    this.bucket = requireBucket(bucket);
    this.prefix = normalizePrefix(prefix);
    this.errors = new S3Errors(bucket);
  }

  /** A builder for a store that owns its client. */
  public static Builder builder() {
    return new Builder();
  }

  /** The bucket. */
  public String bucket() {
    return bucket;
  }

  /** The underlying client (for tests and administration, such as creating the bucket). */
  S3Client client() {
    return client;
  }

  /** The key prefix: empty or ending in {@code /}. */
  public String prefix() {
    return prefix;
  }

  @Override
  public void put(String name, Path file) throws IOException {
    String key = key(name);
    try {
      client.putObject(put(key).build(), RequestBody.fromFile(file));
    } catch (SdkException e) {
      throw errors.map("PUT", key, e);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  public void put(String name, byte[] bytes) throws IOException {
    String key = key(name);
    try {
      client.putObject(put(key).build(), RequestBody.fromBytes(bytes));
    } catch (SdkException e) {
      throw errors.map("PUT", key, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>A server-side {@code CopyObject} within the bucket: no bytes pass through this process
   * (objects up to 5 GiB, S3's limit for a single copy).
   */
  @Override
  public void copy(String from, String to) throws IOException {
    String source = key(from);
    String key = key(to);
    try {
      client.copyObject(b -> b.sourceBucket(bucket).sourceKey(source).destinationBucket(bucket).destinationKey(key));
    } catch (SdkException e) {
      throw errors.map("COPY " + source + " to", key, e);
    }
  }

  /** Whether {@code name} exists with exactly {@code bytes}. */
  private boolean holds(String name, byte[] bytes) throws IOException {
    try {
      return java.util.Arrays.equals(getBytes(name), bytes);
    } catch (java.nio.file.NoSuchFileException e) {
      return false;
    }
  }

  @Override
  public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
    String key = key(name);
    for (int attempt = 1; ; attempt++) {
      try {
        client.putObject(put(key).ifNoneMatch("*").build(), RequestBody.fromBytes(bytes));
        return true;
      } catch (SdkException e) {
        int status = S3Errors.status(e);
        if (status == 412) {
          // the SDK may have retried a PUT whose first attempt succeeded but whose answer was lost:
          // then the object holding exactly these bytes is ours
          return holds(name, bytes);
        }
        if (status != 409 || attempt >= 3) {
          throw errors.map("conditional PUT", key, e);
        }
        // 409 ConditionalRequestConflict: a concurrent conditional write is in flight; ask again.
      }
    }
  }

  @Override
  public void get(String name, Path target) throws IOException {
    String key = key(name);
    Path temp = LocalFiles.tempFor(target);
    try {
      client.getObject(get(key), ResponseTransformer.toFile(temp));
      LocalFiles.moveReplacing(temp, target);
    } catch (SdkException e) {
      throw errors.map("GET", key, e);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public byte[] getBytes(String name) throws IOException {
    String key = key(name);
    try {
      return client.getObjectAsBytes(get(key)).asByteArray();
    } catch (SdkException e) {
      throw errors.map("GET", key, e);
    }
  }

  @Override
  public byte[] getRange(String name, long offset, int length) throws IOException {
    if (length == 0) {
      return new byte[0];
    }
    String key = key(name);
    try {
      byte[] bytes = client.getObjectAsBytes(GetObjectRequest.builder().bucket(bucket).key(key)
          .range("bytes=" + offset + "-" + (offset + length - 1)).build()).asByteArray();
      if (bytes.length < length) {
        throw new java.io.EOFException(name + " ends before byte " + (offset + length));
      }
      return bytes;
    } catch (SdkException e) {
      throw errors.map("GET", key, e);
    }
  }

  @Override
  public InputStream open(String name) throws IOException {
    String key = key(name);
    try {
      ResponseInputStream<GetObjectResponse> in = client.getObject(get(key));
      return in;
    } catch (SdkException e) {
      throw errors.map("GET", key, e);
    }
  }

  @Override
  public boolean exists(String name) throws IOException {
    return size(name) >= 0;
  }

  @Override
  public long size(String name) throws IOException {
    String key = key(name);
    try {
      return client.headObject(HeadObjectRequest.builder().bucket(bucket).key(key).build()).contentLength();
    } catch (SdkException e) {
      if (S3Errors.status(e) == 404) {
        return -1;
      }
      throw errors.map("HEAD", key, e);
    }
  }

  @Override
  public void delete(String name) throws IOException {
    String key = key(name);
    try {
      client.deleteObject(b -> b.bucket(bucket).key(key));
    } catch (SdkException e) {
      if (S3Errors.status(e) != 404) {
        throw errors.map("DELETE", key, e);
      }
    }
  }

  @Override
  public List<String> list(String namePrefix) throws IOException {
    ObjectNames.validatePrefix(namePrefix);
    String keyPrefix = prefix + namePrefix;
    ListObjectsV2Request request = ListObjectsV2Request.builder().bucket(bucket).prefix(keyPrefix).build();
    try {
      return client.listObjectsV2Paginator(request).contents().stream()
          .map(S3Object::key)
          .map(k -> k.substring(prefix.length()))
          .sorted()
          .collect(Collectors.toList());
    } catch (SdkException e) {
      throw errors.map("LIST", keyPrefix + "*", e);
    }
  }

  @Override
  public String url() {
    return "s3://" + bucket + "/" + prefix;
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  @Override
  public String toString() {
    return "S3ObjectStore[" + url() + "]";
  }

  private String key(String name) {
    return prefix + ObjectNames.validate(name);
  }

  private PutObjectRequest.Builder put(String key) {
    return PutObjectRequest.builder().bucket(bucket).key(key);
  }

  private GetObjectRequest get(String key) {
    return GetObjectRequest.builder().bucket(bucket).key(key).build();
  }

  private static String requireBucket(String bucket) {
    if (bucket == null || bucket.isBlank() || bucket.contains("/")) {
      throw new IllegalArgumentException("invalid S3 bucket name '" + bucket + "'");
    }
    return bucket;
  }

  private static String normalizePrefix(String prefix) {
    if (prefix == null || prefix.isEmpty() || prefix.equals("/")) {
      return "";
    }
    String p = prefix.startsWith("/") ? prefix.substring(1) : prefix;
    p = p.endsWith("/") ? p : p + "/";
    ObjectNames.validatePrefix(p);
    return p;
  }

  /**
   * Options of an {@link S3ObjectStore} that creates and owns its {@link S3Client}. Defaults: region
   * {@code us-east-1}, virtual-host addressing, the SDK's default credentials provider chain (system
   * properties {@code aws.accessKeyId}/{@code aws.secretAccessKey}, environment, profile, instance
   * role), no endpoint override. Checksums are only sent where S3 requires them, for compatibility
   * with S3-compatible services.
   */
  public static final class Builder {
    private String bucket;
    private String prefix = "";
    private URI endpoint;
    private boolean pathStyle;
    private String region = "us-east-1";
    private AwsCredentialsProvider credentials;

    private Builder() {}

    /** The bucket (required). */
    public Builder bucket(String bucket) {
      this.bucket = bucket;
      return this;
    }

    /** Key prefix under which all objects live; a trailing {@code /} is added if missing. */
    public Builder prefix(String prefix) {
      this.prefix = prefix;
      return this;
    }

    /** Endpoint of an S3-compatible service, such as {@code http://localhost:9000}; null for AWS. */
    public Builder endpoint(URI endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    /** Path-style addressing ({@code http://host/bucket/key}), needed by most S3-compatible services. */
    public Builder pathStyle(boolean pathStyle) {
      this.pathStyle = pathStyle;
      return this;
    }

    /** The signing region; null or blank means {@code us-east-1}. */
    public Builder region(String region) {
      this.region = region == null || region.isBlank() ? "us-east-1" : region;
      return this;
    }

    /** Credentials; null means the SDK's default provider chain. */
    public Builder credentials(AwsCredentialsProvider credentials) {
      this.credentials = credentials;
      return this;
    }

    /** Creates the client and the store; the store closes the client. */
    public S3ObjectStore build() {
      S3ClientBuilder b = S3Client.builder()
          .httpClientBuilder(ApacheHttpClient.builder())
          .region(Region.of(region))
          .forcePathStyle(pathStyle)
          .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
          .credentialsProvider(credentials != null ? credentials : DefaultCredentialsProvider.builder().build());
      if (endpoint != null) {
        b.endpointOverride(endpoint);
      }
      return new S3ObjectStore(b.build(), true, bucket, prefix);
    }
  }
}
