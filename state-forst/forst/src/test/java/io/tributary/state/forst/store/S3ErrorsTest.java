package io.tributary.state.forst.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

/** S3 failures say which object and what to fix, in a line a person reads. */
class S3ErrorsTest {
  private final S3Errors errors = new S3Errors("b");

  @Test
  void missingCredentialsAreOneShortLineNotTheProviderChain() {
    IOException e = errors.map("PUT", "k", SdkClientException.create("Unable to load credentials from any of the"
        + " providers in the chain AwsCredentialsProviderChain(credentialsProviders=[SystemPropertyCredentialsProvider(),"
        + " EnvironmentVariableCredentialsProvider()]) : [SystemPropertyCredentialsProvider(): Unable to load ...]"));
    assertThat(e).hasMessage("PUT s3://b/k failed: no AWS credentials found — set AWS_ACCESS_KEY_ID and"
        + " AWS_SECRET_ACCESS_KEY (or aws.accessKeyId and aws.secretAccessKey, or a profile)");
  }

  @Test
  void anUnreachableEndpointSaysWhatToCheck() {
    IOException e = errors.map("GET", "k", SdkClientException.create("Unable to execute HTTP request: Connection refused"));
    assertThat(e.getMessage()).startsWith("GET s3://b/k failed (no response): Unable to execute HTTP request: Connection"
        + " refused — check that the endpoint (TRIBUTARY_S3_ENDPOINT) is reachable");
  }
}
