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
}
