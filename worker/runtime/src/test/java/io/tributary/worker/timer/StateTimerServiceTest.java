package io.tributary.worker.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateSnapshot;
import io.tributary.state.forst.rocks.ForstConfig;
import io.tributary.state.forst.rocks.ForstStateBackendFactory;
import io.tributary.state.heap.HeapKeyedStateBackend;
import io.tributary.state.store.InMemoryObjectStore;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.timer.LazyTimerRestoreTest.CountingCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HeapTimerServiceTest}'s cases for timers kept in the forst backend, and their snapshot and
 * restore with the backend's state: at another parallelism, lazily, and from a snapshot of heap
 * timers.
 */
class StateTimerServiceTest {
  private static final int M = 128;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, M);

  @TempDir
  Path tmp;
  private ForstStateBackendFactory factory;
  private final CountingCodec codec = new CountingCodec();
  private final List<KeyedStateBackend> opened = new ArrayList<>();
  private KeyedStateBackend backend;
  private TaskTimers timers;

  @BeforeEach
  void open() {
    factory = ForstStateBackendFactory.fromConfig(
        new ForstConfig(new InMemoryObjectStore(), tmp, 1L << 30, 8L << 20, 16L << 20));
    backend = backend(ALL, List.of());
    timers = TaskTimers.of(backend, codec);
  }

  @AfterEach
  void close() {
    opened.forEach(KeyedStateBackend::close);
    factory.close();
  }

  private KeyedStateBackend backend(KeyGroupRange range, List<StateSnapshot> from) {
    KeyedStateBackend b = factory.restore("job", "op", range, M, from);
    opened.add(b);
    return b;
  }

  @Test
  void theForstBackendKeepsTheTimersAndTheHeapBackendDoesNot() {
    assertThat(timers).isInstanceOf(StateTimerService.class);
    assertThat(TaskTimers.of(new HeapKeyedStateBackend(ALL, M), codec)).isInstanceOf(HeapTimerService.class);
    ForstStateBackendFactory heapTimers = ForstStateBackendFactory.fromConfig(
        new ForstConfig(new InMemoryObjectStore(), tmp.resolve("h"), 1L << 30, 8L << 20, 16L << 20)
            .withTimersInState(false));
    try (KeyedStateBackend b = heapTimers.create("job", "op", ALL, M)) {
      assertThat(TaskTimers.of(b, codec)).isInstanceOf(HeapTimerService.class);
    } finally {
      heapTimers.close();
    }
  }

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
    register(Key.of(1L), null, 11);
    assertThat(timers.size()).isEqualTo(5);
    assertThat(drain(timers, 100)).hasSize(5).contains(new Timer(Key.of(1L), null, 11));
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
    assertThat(drain(timers, 100)).extracting(Timer::time).containsExactly(10L, 20L);
    assertThat(timers.size()).isZero();
    assertThat(timers.nextTimerTime()).isEqualTo(Long.MAX_VALUE);
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
    for (int round = 0; round < 20; round++) {
      KeyedStateBackend b = backend(ALL, List.of());
      TaskTimers t = TaskTimers.of(b, codec);
      Set<Timer> expected = new HashSet<>();
      for (int i = 0; i < 400; i++) {
        Key key = Key.of((long) random.nextInt(5));
        long time = random.nextInt(300);
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
      List<Timer> fired = drain(t, Long.MAX_VALUE);
      assertThat(fired).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(fired).as("seed %d", seed).isSortedAccordingTo((x, y) -> Long.compare(x.time(), y.time()));
    }
  }

  @Test
  void timersRestoreWithTheStateAtAnotherParallelismAndTheLowestWatermark() throws Exception {
    List<Timer> live = new ArrayList<>();
    for (long k = 0; k < 3_000; k++) {
      register(Key.of(k), "w", 100 + k % 500);
      live.add(new Timer(Key.of(k), "w", 100 + k % 500));
    }
    timers.advanceWatermark(50);
    byte[] timerBytes = timers.snapshot(codec);
    assertThat(timerBytes.length).as("only the watermark: the timers are in the state").isLessThan(100);
    List<StateSnapshot> state = List.of(backend.snapshot(1).get());

    List<Timer> fired = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      KeyGroupRange range = KeyGroups.rangeFor(M, 3, i);
      KeyedStateBackend b = backend(range, state);
      TaskTimers t = TaskTimers.of(b, codec);
      t.restore(timerBytes, codec, range, M);
      assertThat(t.currentWatermark()).isEqualTo(50);
      List<Timer> mine = drain(t, Long.MAX_VALUE);
      assertThat(mine).isSortedAccordingTo((x, y) -> Long.compare(x.time(), y.time()))
          .allMatch(x -> range.contains(x.key().keyGroup(M)));
      fired.addAll(mine);
    }
    assertThat(fired).containsExactlyInAnyOrderElementsOf(live);
  }

  @Test
  void aSnapshotOfHeapTimersIsRestoredIntoTheBackend() {
    List<Timer> live = new ArrayList<>();
    HeapKeyedStateBackend heapState = new HeapKeyedStateBackend(ALL, M);
    HeapTimerService heap = new HeapTimerService(heapState);
    for (long k = 0; k < 500; k++) {
      heapState.setCurrentKey(Key.of(k));
      heap.register("w", k);
      live.add(new Timer(Key.of(k), "w", k));
    }
    heap.advanceWatermark(-3);
    byte[] bytes = heap.snapshot(codec);

    KeyGroupRange half = KeyGroups.rangeFor(M, 2, 1);
    KeyedStateBackend b = backend(half, List.of());
    TaskTimers t = TaskTimers.of(b, codec);
    t.restore(new CountingSource(bytes), codec, half, M);
    assertThat(t.currentWatermark()).isEqualTo(-3);
    assertThat(drain(t, Long.MAX_VALUE)).containsExactlyElementsOf(
        live.stream().filter(x -> half.contains(x.key().keyGroup(M))).toList());
  }

  @Test
  void restoreIsOnlyForAFreshService() {
    register(Key.of(1L), "w", 1);
    byte[] bytes = timers.snapshot(codec);
    assertThatThrownBy(() -> timers.restore(bytes, codec, ALL, M)).isInstanceOf(IllegalStateException.class);
  }

  private void register(Key key, Object namespace, long time) {
    backend.setCurrentKey(key);
    timers.register(namespace, time);
  }

  private static List<Timer> drain(TaskTimers t, long watermark) {
    List<Timer> fired = new ArrayList<>();
    for (Timer x; (x = t.pollDue(watermark)) != null; ) {
      fired.add(x);
    }
    return fired;
  }
}
