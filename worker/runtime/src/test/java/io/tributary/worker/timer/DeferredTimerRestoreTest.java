package io.tributary.worker.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.worker.operator.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@link HeapTimerService#restoreLater}: the task works while a restore's bytes are still being
 * read, and what it registers and deletes meanwhile counts as after the restore.
 */
class DeferredTimerRestoreTest {
  private static final int M = 16;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, M);
  private final LazyTimerRestoreTest.CountingCodec codec = new LazyTimerRestoreTest.CountingCodec();

  @Test
  void timersTouchedBeforeTheBytesArriveCountAsAfterTheRestore() {
    byte[] bytes = snapshotOf(7, new Timer(Key.of(1L), "w", 10), new Timer(Key.of(2L), "w", 20),
        new Timer(Key.of(3L), "w", 30));
    CompletableFuture<byte[]> reading = new CompletableFuture<>();
    LazyTimerRestoreTest.Svc target = new LazyTimerRestoreTest.Svc(ALL);
    target.timers.restoreLater(reading, codec, ALL, M, 7);

    assertThat(target.currentWatermark()).isEqualTo(7);
    target.register(Key.of(1L), "w", 10); // registered again: fires once
    target.delete(Key.of(2L), "w", 20); // deleted: never fires
    target.register(Key.of(4L), "w", 40); // new
    target.delete(Key.of(3L), "w", 30);
    target.register(Key.of(3L), "w", 30); // deleted, then registered again: fires once
    assertThat(reading).isNotDone();

    reading.complete(bytes);
    assertThat(drain(target, 100)).extracting(t -> t.key().get(0) + "@" + t.time())
        .containsExactly("1@10", "3@30", "4@40");
    assertThat(target.size()).isZero();
  }

  @Test
  void aSnapshotWaitsForTheBytesAndHoldsExactlyTheLiveTimers() {
    byte[] bytes = snapshotOf(0, new Timer(Key.of(1L), "w", 10), new Timer(Key.of(2L), "w", 20));
    LazyTimerRestoreTest.Svc target = new LazyTimerRestoreTest.Svc(ALL);
    target.timers.restoreLater(CompletableFuture.completedFuture(bytes), codec, ALL, M, 0);
    target.delete(Key.of(1L), "w", 10);
    target.register(Key.of(5L), "w", 50);

    byte[] again = target.timers.snapshot(codec);
    LazyTimerRestoreTest.Svc next = new LazyTimerRestoreTest.Svc(ALL);
    next.timers.restore(again, codec, ALL, M);
    assertThat(drain(next, Long.MAX_VALUE)).extracting(Timer::time).containsExactly(20L, 50L);
  }

  @Test
  void theWatermarkIsTheLowestOfTheRestoredOperatorsAndStaysWhenTheBytesArrive() {
    byte[] first = snapshotOf(5, new Timer(Key.of(1L), "w", 10));
    byte[] second = snapshotOf(5, new Timer(Key.of(2L), "w", 6));
    LazyTimerRestoreTest.Svc target = new LazyTimerRestoreTest.Svc(ALL);
    target.timers.restoreLater(CompletableFuture.completedFuture(first), codec, ALL, M, 8);
    target.timers.restoreLater(CompletableFuture.completedFuture(second), codec, ALL, M, 7);
    assertThat(target.currentWatermark()).isEqualTo(7);

    assertThat(target.nextTimerTime()).isEqualTo(6);
    assertThat(target.currentWatermark()).isEqualTo(7);
    assertThat(drain(target, 7)).extracting(Timer::time).containsExactly(6L);
  }

  @Test
  void bytesThatCannotBeReadFailTheFirstCallThatNeedsThem() {
    LazyTimerRestoreTest.Svc target = new LazyTimerRestoreTest.Svc(ALL);
    target.timers.restoreLater(CompletableFuture.failedFuture(new java.io.IOException("store down")), codec, ALL,
        M, 0);
    target.register(Key.of(1L), "w", 10);
    assertThatThrownBy(() -> target.pollDue(10)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot restore timers").hasMessageContaining("store down");
    assertThatThrownBy(() -> target.timers.restoreLater(CompletableFuture.completedFuture(new byte[0]), codec, ALL,
        M, 0)).isInstanceOf(IllegalStateException.class);
  }

  private byte[] snapshotOf(long watermark, Timer... timers) {
    LazyTimerRestoreTest.Svc source = new LazyTimerRestoreTest.Svc(ALL);
    source.advanceWatermark(watermark);
    for (Timer t : timers) {
      source.register(t.key(), t.namespace(), t.time());
    }
    return source.timers.snapshot(codec);
  }

  private static List<Timer> drain(LazyTimerRestoreTest.Svc timers, long watermark) {
    List<Timer> fired = new ArrayList<>();
    for (Timer t; (t = timers.pollDue(watermark)) != null; ) {
      fired.add(t);
    }
    return fired;
  }
}
