package io.tributary.state.forst.store;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/** Turns SDK exceptions into {@link IOException}s that say which object failed and what to fix. */
final class S3Errors {
  private final String bucket;

  S3Errors(String bucket) {
    this.bucket = bucket;
  }

  /** The HTTP status of a service error, or -1 for client-side failures. */
  static int status(SdkException e) {
    return e instanceof AwsServiceException ? ((AwsServiceException) e).statusCode() : -1;
  }

  IOException map(String operation, String key, SdkException e) {
    String where = "s3://" + bucket + "/" + key;
    int status = status(e);
    if (status == 404 && !isNoSuchBucket(e)) {
      NoSuchFileException missing = new NoSuchFileException(where, null, operation + " failed: no such object");
      missing.initCause(e);
      return missing;
    }
    if (noCredentials(e)) {
      // the SDK lists every provider it tried, with why each failed: a page for "none configured"
      return new IOException(operation + " " + where + " failed: no AWS credentials found — set AWS_ACCESS_KEY_ID"
          + " and AWS_SECRET_ACCESS_KEY (or aws.accessKeyId and aws.secretAccessKey, or a profile)", e);
    }
    String code = e instanceof AwsServiceException && ((AwsServiceException) e).awsErrorDetails() != null
        ? ((AwsServiceException) e).awsErrorDetails().errorCode() : null;
    return new IOException(operation + " " + where + " failed (" + describe(status, code) + "): "
        + e.getMessage() + " — " + hint(e, status), e);
  }

  private static boolean noCredentials(SdkException e) {
    return e instanceof SdkClientException && e.getMessage() != null
        && e.getMessage().startsWith("Unable to load credentials");
  }

  private static boolean isNoSuchBucket(SdkException e) {
    return e instanceof AwsServiceException && ((AwsServiceException) e).awsErrorDetails() != null
        && "NoSuchBucket".equals(((AwsServiceException) e).awsErrorDetails().errorCode());
  }

  private static String describe(int status, String code) {
    return status < 0 ? "no response" : "HTTP " + status + (code == null ? "" : " " + code);
  }

  private String hint(SdkException e, int status) {
    if (e instanceof SdkClientException) {
      return "check that the endpoint (TRIBUTARY_S3_ENDPOINT) is reachable, the region (AWS_REGION) is right "
          + "and credentials are configured (aws.accessKeyId/aws.secretAccessKey, AWS_* variables or a profile)";
    }
    if (isNoSuchBucket(e)) {
      return "create bucket '" + bucket + "' or fix the object store URL";
    }
    switch (status) {
      case 301:
      case 400:
        return "check the region (AWS_REGION) and, for S3-compatible services, path-style access "
            + "(TRIBUTARY_S3_PATH_STYLE=true)";
      case 401:
      case 403:
        return "check the credentials and that they may read and write bucket '" + bucket + "'";
      case 501:
        return "the service does not implement this S3 feature (conditional writes need If-None-Match support)";
      case 500:
      case 502:
      case 503:
        return "the service is unavailable or throttling; retrying later may help";
      default:
        return "see the service's error code";
    }
  }
}
