package io.tributary.state.forst.store;

import io.tributary.state.store.ObjectStore;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.function.UnaryOperator;

/**
 * Opens an {@link ObjectStore} from a URL (storage is chosen by URL).
 *
 * <ul>
 *   <li>{@code s3://bucket/prefix}: an {@link S3ObjectStore}. The endpoint comes from system
 *       property {@code tributary.s3.endpoint} or environment variable {@code TRIBUTARY_S3_ENDPOINT}
 *       (unset: AWS), path-style access from {@code tributary.s3.pathStyle} /
 *       {@code TRIBUTARY_S3_PATH_STYLE} ({@code true}/{@code false}, default false), the region from
 *       {@code aws.region} / {@code AWS_REGION} (default {@code us-east-1}); credentials from the
 *       SDK's default provider chain.
 *   <li>{@code file:///abs/dir} or a plain path: a {@link LocalObjectStore}.
 * </ul>
 */
public final class ObjectStores {
  private ObjectStores() {}

  /**
   * Opens the store named by {@code url}, reading S3 options from system properties and the
   * environment.
   *
   * @throws IllegalArgumentException if the URL is malformed or its scheme unsupported
   */
  public static ObjectStore open(String url) {
    return open(url, ObjectStores::systemSetting);
  }

  /**
   * Opens the store named by {@code url}, reading S3 options through {@code settings}, which maps an
   * environment-variable name ({@code TRIBUTARY_S3_ENDPOINT}, {@code TRIBUTARY_S3_PATH_STYLE},
   * {@code AWS_REGION}) to its value or null.
   */
  public static ObjectStore open(String url, UnaryOperator<String> settings) {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("object store URL is empty: use s3://bucket/prefix, file:///dir or a path");
    }
    if (url.startsWith("s3://")) {
      return openS3(URI.create(url), settings);
    }
    if (url.startsWith("file:")) {
      return new LocalObjectStore(Paths.get(URI.create(url)));
    }
    if (url.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
      throw new IllegalArgumentException("unsupported object store URL '" + url
          + "': use s3://bucket/prefix, file:///dir or a path");
    }
    return new LocalObjectStore(Path.of(url));
  }

  private static ObjectStore openS3(URI uri, UnaryOperator<String> settings) {
    String bucket = uri.getHost();
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("object store URL '" + uri + "' names no bucket: use s3://bucket/prefix");
    }
    String endpoint = settings.apply("TRIBUTARY_S3_ENDPOINT");
    return S3ObjectStore.builder()
        .bucket(bucket)
        .prefix(uri.getPath() == null ? "" : uri.getPath())
        .endpoint(endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint))
        .pathStyle(Boolean.parseBoolean(settings.apply("TRIBUTARY_S3_PATH_STYLE")))
        .region(settings.apply("AWS_REGION"))
        .build();
  }

  /** System property (lower-case dotted form) first, then the environment variable. */
  private static String systemSetting(String envName) {
    String property;
    switch (envName) {
      case "TRIBUTARY_S3_ENDPOINT":
        property = "tributary.s3.endpoint";
        break;
      case "TRIBUTARY_S3_PATH_STYLE":
        property = "tributary.s3.pathStyle";
        break;
      case "AWS_REGION":
        property = "aws.region";
        break;
      default:
        property = null;
    }
    String value = property == null ? null : System.getProperty(property);
    return value != null ? value : System.getenv(envName);
  }
}
