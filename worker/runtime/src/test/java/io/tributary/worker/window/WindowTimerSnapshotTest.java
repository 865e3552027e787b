package io.tributary.worker.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.heap.HeapKeyedStateBackend;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.timer.HeapTimerService;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Timer snapshots with the window operator's namespace: exact, split by key group when rescaling. */
class WindowTimerSnapshotTest {
  private static final int MAX_PARALLELISM = 32;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM);

  @Test
  void liveTimersAndTheWatermarkRestoreSplitAcrossRanges() {
    long seed = System.nanoTime();
    System.out.println("WindowTimerSnapshotTest seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 20; round++) {
      HeapKeyedStateBackend sourceState = new HeapKeyedStateBackend(ALL, MAX_PARALLELISM);
      HeapTimerService source = new HeapTimerService(sourceState);
      Set<Timer> expected = new HashSet<>();
      for (int i = 0; i < 200; i++) {
        Key key = Key.of((long) random.nextInt(30));
        long start = random.nextInt(10) * 10L;
        TimeWindow w = new TimeWindow(start, start + 10);
        long time = random.nextInt(100);
        sourceState.setCurrentKey(key);
        if (random.nextInt(4) == 0) {
          source.delete(w, time);
          expected.remove(new Timer(key, w, time));
        } else {
          source.register(w, time);
          expected.add(new Timer(key, w, time));
        }
      }
      source.advanceWatermark(-5);
      byte[] bytes = source.snapshot(WindowOperator.namespaceCodec());

      int parallelism = 1 + random.nextInt(4);
      Set<Timer> restored = new HashSet<>();
      for (int i = 0; i < parallelism; i++) {
        KeyGroupRange range = KeyGroups.rangeFor(MAX_PARALLELISM, parallelism, i);
        HeapTimerService target = new HeapTimerService(new HeapKeyedStateBackend(range, MAX_PARALLELISM));
        target.restore(bytes, WindowOperator.namespaceCodec(), range, MAX_PARALLELISM);
        assertThat(target.currentWatermark()).isEqualTo(-5);
        for (Timer t : drain(target)) {
          assertThat(range.contains(t.key().keyGroup(MAX_PARALLELISM))).as("seed %d", seed).isTrue();
          assertThat(restored.add(t)).as("seed %d: %s restored twice", seed, t).isTrue();
        }
      }
      assertThat(restored).as("seed %d, round %d", seed, round).isEqualTo(expected);
    }
  }

  @Test
  void restoringSeveralSnapshotsKeepsTheLowestWatermark() {
    HeapTimerService a = new HeapTimerService(new HeapKeyedStateBackend(ALL, MAX_PARALLELISM));
    a.advanceWatermark(100);
    HeapTimerService b = new HeapTimerService(new HeapKeyedStateBackend(ALL, MAX_PARALLELISM));
    b.advanceWatermark(40);
    HeapTimerService target = new HeapTimerService(new HeapKeyedStateBackend(ALL, MAX_PARALLELISM));
    target.restore(b.snapshot(WindowOperator.namespaceCodec()), WindowOperator.namespaceCodec(), ALL, MAX_PARALLELISM);
    target.restore(a.snapshot(WindowOperator.namespaceCodec()), WindowOperator.namespaceCodec(), ALL, MAX_PARALLELISM);
    assertThat(target.currentWatermark()).isEqualTo(40);
  }

  @Test
  void onlyAFreshServiceCanBeRestored() {
    HeapTimerService used = new HeapTimerService(new HeapKeyedStateBackend(ALL, MAX_PARALLELISM));
    byte[] bytes = used.snapshot(WindowOperator.namespaceCodec());
    used.advanceWatermark(1);
    assertThatThrownBy(() -> used.restore(bytes, WindowOperator.namespaceCodec(), ALL, MAX_PARALLELISM))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("fresh");
    HeapTimerService fresh = new HeapTimerService(new HeapKeyedStateBackend(ALL, MAX_PARALLELISM));
    assertThatThrownBy(() -> fresh.restore(new byte[] {1, 2, 3}, WindowOperator.namespaceCodec(), ALL,
        MAX_PARALLELISM)).isInstanceOf(IllegalStateException.class);
  }

  private static List<Timer> drain(HeapTimerService timers) {
    List<Timer> out = new ArrayList<>();
    Timer t;
    while ((t = timers.pollDue(Long.MAX_VALUE)) != null) {
      out.add(t);
    }
    return out;
  }
}
