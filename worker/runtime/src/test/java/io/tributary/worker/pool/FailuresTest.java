package io.tributary.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.connect.ConnectorException;
import io.tributary.expr.ExpressionException;
import io.tributary.protocol.Failure;
import io.tributary.worker.task.RestoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class FailuresTest {
  @Test
  void aCheckpointThatCannotBeRestoredIsTheUsersAndNotRetryable() {
    Failure f = Failures.ofTask("window (1/2)", new RestoreException("maxParallelism changed"));

    assertThat(f.domain()).isEqualTo(Failure.Domain.USER);
    assertThat(f.retryable()).isFalse();
    assertThat(f.describe()).startsWith("user error (not retryable): ").contains("window (1/2)")
        .contains("maxParallelism changed");
  }

  @Test
  void ioTroubleIsExternalAndRetryableEvenInsideAConnectorError() {
    Failure f = Failures.classify(new ConnectorException("kafka sink 'out': send failed",
        new UncheckedIOException(new IOException("connection reset"))));

    assertThat(f.domain()).isEqualTo(Failure.Domain.EXTERNAL);
    assertThat(f.retryable()).isTrue();
  }

  @Test
  void aMisconfiguredConnectorIsTheUsers() {
    Failure f = Failures.classify(new ConnectorException("file source 'in': no such file: x.jsonl"));

    assertThat(f.domain()).isEqualTo(Failure.Domain.USER);
    assertThat(f.retryable()).isFalse();
  }

  @Test
  void expressionErrorsAreTheUsers() {
    assertThat(Failures.classify(new ExpressionException("unknown field 'x'")).domain())
        .isEqualTo(Failure.Domain.USER);
  }

  @Test
  void anythingElseIsInternalAndRetryable() {
    Failure f = Failures.classify(new IllegalStateException("boom"));

    assertThat(f.domain()).isEqualTo(Failure.Domain.INTERNAL);
    assertThat(f.retryable()).isTrue();
    assertThat(f.describe()).isEqualTo("internal error (retryable): boom");
  }

  @Test
  void aRefusedPathEndpointOrClientSettingIsTheUsersAndNotRetryable() {
    Failure f = Failures.classify(new ConnectorException("kafka source 's'",
        new io.tributary.connect.AccessRefusedException("'x:1' is not on this server's endpoint allow-list")));
    assertThat(f.domain()).isEqualTo(Failure.Domain.USER);
    assertThat(f.retryable()).isFalse();
    Failure refused = Failures.classify(new io.tributary.connect.AccessRefusedException("leads to /etc"));
    assertThat(refused.domain()).isEqualTo(Failure.Domain.USER);
    Failure config = Failures.classify(new org.apache.kafka.common.KafkaException("Failed to construct kafka consumer",
        new org.apache.kafka.common.config.ConfigException("sasl.jaas.config", "x", "bad module")));
    assertThat(config.domain()).isEqualTo(Failure.Domain.USER);
    assertThat(config.retryable()).isFalse();
  }
}
