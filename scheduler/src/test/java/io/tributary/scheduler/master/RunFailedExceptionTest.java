package io.tributary.scheduler.master;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.protocol.Failure;
import org.junit.jupiter.api.Test;

/** A run's last failure says why it was not restarted (again). */
class RunFailedExceptionTest {
  private static final Failure BROKER = new Failure(Failure.Domain.EXTERNAL, true, "no broker");

  @Test
  void saysWhyARetryableFailureEndedTheRun() {
    assertThat(new RunFailedException(BROKER, 5, 5, true).getMessage()).endsWith("no broker (gave up after 5 restarts)");
    assertThat(new RunFailedException(BROKER, 0, 0, true).getMessage()).endsWith("no broker (not restarted: restarts are off)");
    assertThat(new RunFailedException(BROKER, 0, 0, false).getMessage())
        .endsWith("no broker (not restarted: the job takes no checkpoints to restart from)");
    assertThat(new RunFailedException(Failure.user("bad path"), 0, 5, true).getMessage()).endsWith("bad path");
  }
}
