package io.tributary.worker.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class TaskCheckpointerTest {
  @Test
  void theJvmsOwnErrorsFailTheTaskWhereverTheyAreWrapped() {
    assertThat(TaskCheckpointer.failsTask(new OutOfMemoryError("Java heap space"))).isTrue();
    assertThat(TaskCheckpointer.failsTask(new CompletionException(new OutOfMemoryError("Java heap space")))).isTrue();
    assertThat(TaskCheckpointer.failsTask(new IllegalStateException("x", new StackOverflowError()))).isTrue();
  }

  @Test
  void otherFailuresOnlyDeclineTheCheckpoint() {
    assertThat(TaskCheckpointer.failsTask(new UncheckedIOException(new IOException("disk full")))).isFalse();
    assertThat(TaskCheckpointer.failsTask(new CompletionException(new IllegalStateException("upload refused"))))
        .isFalse();
  }
}
