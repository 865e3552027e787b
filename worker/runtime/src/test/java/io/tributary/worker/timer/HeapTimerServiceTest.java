package io.tributary.worker.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.heap.HeapKeyedStateBackend;
import io.tributary.worker.operator.Timer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HeapTimerServiceTest {
  private final HeapKeyedStateBackend backend = new HeapKeyedStateBackend(new KeyGroupRange(0, 128), 128);
  private final HeapTimerService timers = new HeapTimerService(backend);

  @Test
  void firesInTimeOrderOnlyWhenDueAndSetsTheKey() {
    register(Key.of("a"), "w", 30);
    register(Key.of("b"), "w", 10);
    register(Key.of("c"), "w", 20);
    assertThat(timers.nextTimerTime()).isEqualTo(10);
    assertThat(timers.pollDue(5)).isNull();

    Timer first = timers.pollDue(20);
    assertThat(first).isEqualTo(new Timer(Key.of("b"), "w", 10));
    assertThat(backend.currentKey()).isEqualTo(Key.of("b"));
    assertThat(timers.pollDue(20).key()).isEqualTo(Key.of("c"));
    assertThat(backend.currentKey()).isEqualTo(Key.of("c"));
    assertThat(timers.pollDue(20)).isNull();
    assertThat(timers.size()).isEqualTo(1);
    assertThat(timers.nextTimerTime()).isEqualTo(30);
  }

  @Test
  void registeringTwiceIsANoOp() {
    register(Key.of(1L), "w", 10);
    register(Key.of(1L), "w", 10);
    assertThat(timers.size()).isEqualTo(1);
    register(Key.of(2L), "w", 10);
    register(Key.of(1L), "v", 10);
    register(Key.of(1L), "w", 11);
    assertThat(timers.size()).isEqualTo(4);
    assertThat(drain(100)).hasSize(4);
  }

  @Test
  void deletedTimersNeverFireAndMayBeRegisteredAgain() {
    register(Key.of(1L), "w", 10);
    register(Key.of(1L), "w", 20);
    backend.setCurrentKey(Key.of(1L));
    timers.delete("w", 10);
    timers.delete("w", 99); // absent: no effect
    assertThat(timers.size()).isEqualTo(1);
    assertThat(timers.nextTimerTime()).isEqualTo(20);

    timers.register("w", 10);
    timers.delete("w", 10);
    timers.register("w", 10);
    assertThat(drain(100)).extracting(Timer::time).containsExactly(10L, 20L);
    assertThat(timers.size()).isZero();
    assertThat(timers.nextTimerTime()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aSnapshotHoldsExactlyTheLiveTimersWhateverWasDeletedSkippedOrRegisteredAgain() {
    LazyTimerRestoreTest.CountingCodec codec = new LazyTimerRestoreTest.CountingCodec();
    register(Key.of(1L), "w", 10);
    register(Key.of(2L), "w", 10);
    backend.setCurrentKey(Key.of(1L));
    timers.delete("w", 10); // its entry in the queue is stale now
    assertThat(drain(15)).extracting(Timer::key).containsExactly(Key.of(2L)); // and skipped on the way
    register(Key.of(1L), "w", 10); // again, in the past: due at the next watermark
    register(Key.of(3L), "w", 30);
    backend.setCurrentKey(Key.of(3L));
    timers.delete("w", 30);
    timers.register("w", 30); // two equal entries in the queue now, one of them stale

    byte[] bytes = timers.snapshot(codec);
    HeapTimerService restored = new HeapTimerService(new HeapKeyedStateBackend(new KeyGroupRange(0, 128), 128));
    restored.restore(bytes, codec, new KeyGroupRange(0, 128), 128);
    List<Timer> fired = new ArrayList<>();
    for (Timer t; (t = restored.pollDue(100)) != null; ) {
      fired.add(t);
    }
    assertThat(fired).containsExactly(new Timer(Key.of(1L), "w", 10), new Timer(Key.of(3L), "w", 30));
  }

  @Test
  void watermarkMovesForwardOnly() {
    assertThat(timers.currentWatermark()).isEqualTo(Long.MIN_VALUE);
    timers.pollDue(5);
    assertThat(timers.currentWatermark()).isEqualTo(5);
    timers.advanceWatermark(7);
    assertThat(timers.currentWatermark()).isEqualTo(7);
    assertThatThrownBy(() -> timers.advanceWatermark(6)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> timers.pollDue(6)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void registeringNeedsACurrentKey() {
    assertThatThrownBy(() -> timers.register("w", 1)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void randomRegistrationsAndDeletionsFireExactlyTheLiveTimersInOrder() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (int round = 0; round < 50; round++) {
      HeapKeyedStateBackend b = new HeapKeyedStateBackend(new KeyGroupRange(0, 128), 128);
      HeapTimerService t = new HeapTimerService(b);
      Set<Timer> expected = new HashSet<>();
      for (int i = 0; i < 200; i++) {
        Key key = Key.of((long) random.nextInt(5));
        long time = random.nextInt(50);
        b.setCurrentKey(key);
        if (random.nextInt(3) == 0) {
          t.delete("n", time);
          expected.remove(new Timer(key, "n", time));
        } else {
          t.register("n", time);
          expected.add(new Timer(key, "n", time));
        }
      }
      assertThat(t.size()).as("seed %d", seed).isEqualTo(expected.size());
      List<Timer> fired = new ArrayList<>();
      for (Timer x; (x = t.pollDue(Long.MAX_VALUE)) != null; ) {
        fired.add(x);
      }
      assertThat(fired).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(fired).as("seed %d", seed).isSortedAccordingTo((x, y) -> Long.compare(x.time(), y.time()));
    }
  }

  private void register(Key key, Object namespace, long time) {
    backend.setCurrentKey(key);
    timers.register(namespace, time);
  }

  private List<Timer> drain(long watermark) {
    List<Timer> fired = new ArrayList<>();
    for (Timer t; (t = timers.pollDue(watermark)) != null; ) {
      fired.add(t);
    }
    return fired;
  }
}
