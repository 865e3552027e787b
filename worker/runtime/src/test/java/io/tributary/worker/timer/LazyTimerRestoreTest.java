package io.tributary.worker.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyGroups;
import io.tributary.state.StateCodec;
import io.tributary.state.heap.HeapKeyedStateBackend;
import io.tributary.worker.operator.Timer;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Restore of timer snapshots from memory (version 3, and the older ones): lazy, exact, and rules for
 * timers touched while undecoded.
 */
class LazyTimerRestoreTest {
  private static final int M = 16;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, M);

  /** Strings as namespaces, counting how often one is decoded. */
  static final class CountingCodec implements StateCodec<String> {
    final AtomicInteger reads = new AtomicInteger();

    @Override
    public void write(String value, DataOutput out) throws IOException {
      out.writeUTF(value);
    }

    @Override
    public String read(DataInput in) throws IOException {
      reads.incrementAndGet();
      return in.readUTF();
    }
  }

  private final CountingCodec codec = new CountingCodec();

  @Test
  void restoreDecodesNoTimerUntilOneIsNeeded() {
    Svc source = service(ALL);
    for (long k = 0; k < 2_000; k++) {
      register(source, Key.of(k), "w", 100);
      register(source, Key.of(k), "w", 200);
    }
    byte[] bytes = source.snapshot(codec);
    codec.reads.set(0);

    KeyGroupRange half = new KeyGroupRange(0, M / 2);
    Svc target = service(half);
    target.restore(bytes, codec, half, M);
    assertThat(target.nextTimerTime()).isEqualTo(100); // the index holds each section's earliest time
    long owned = LongStream.range(0, 2_000).filter(k -> half.contains(Key.of(k).keyGroup(M))).count();
    assertThat(target.size()).isEqualTo(2 * owned);
    assertThat(codec.reads.get()).isZero();

    List<Timer> due = drain(target, 100);
    assertThat(due).isNotEmpty().allMatch(t -> t.time() == 100);
    Set<Object> namespaces = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    due.forEach(t -> namespaces.add(t.namespace()));
    assertThat(namespaces).as("the timers of a run share one namespace object").hasSize(M / 2);
    assertThat(codec.reads.get()).isEqualTo(M); // and the runs at 200
  }

  @Test
  void aTimerRegisteredAgainWhileUndecodedFiresOnce() {
    Svc target = restored(List.of(new Timer(Key.of(1L), "w", 10), new Timer(Key.of(2L), "w", 10)));
    register(target, Key.of(1L), "w", 10);
    register(target, Key.of(3L), "w", 10);
    assertThat(drain(target, 10)).extracting(t -> t.key().get(0)).containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThat(target.size()).isZero();
    assertThat(target.nextTimerTime()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aDeletedUndecodedTimerNeverFiresUnlessRegisteredAgain() {
    Svc target = restored(List.of(
        new Timer(Key.of(1L), "w", 10), new Timer(Key.of(2L), "w", 20), new Timer(Key.of(3L), "w", 30)));
    target.delete(Key.of(1L), "w", 10);
    target.delete(Key.of(2L), "w", 20);
    target.register(Key.of(2L), "w", 20);
    target.register(Key.of(3L), "w", 30);
    target.delete(Key.of(3L), "w", 30);
    assertThat(target.nextTimerTime()).isEqualTo(20);
    assertThat(drain(target, 100)).extracting(Timer::time).containsExactly(20L);
    assertThat(target.size()).isZero();
  }

  @Test
  void aSnapshotOfUndecodedTimersHoldsExactlyTheLiveOnes() {
    Svc target = restored(List.of(
        new Timer(Key.of(1L), "w", 10), new Timer(Key.of(2L), "w", 20), new Timer(Key.of(3L), "v", 30)));
    target.delete(Key.of(2L), "w", 20);
    target.register(Key.of(3L), "v", 30);
    target.register(Key.of(3L), "v", 40);
    assertThat(target.pollDue(10).key()).isEqualTo(Key.of(1L));
    byte[] bytes = target.snapshot(codec);
    target.pollDue(100); // the service moves on; the snapshot does not

    Svc again = service(ALL);
    again.restore(bytes, codec, ALL, M);
    assertThat(again.currentWatermark()).isEqualTo(10);
    assertThat(drain(again, Long.MAX_VALUE)).containsExactly(
        new Timer(Key.of(3L), "v", 30), new Timer(Key.of(3L), "v", 40));
  }

  @Test
  void readsVersionOneSnapshots() {
    Timer[] timers = {new Timer(Key.of(1L), "w", 30), new Timer(Key.of(2L), null, 10)};
    byte[] old = TimerSnapshotFormat.writeV1(5, timers, codec);
    Svc target = service(ALL);
    target.restore(old, codec, ALL, M);
    assertThat(target.currentWatermark()).isEqualTo(5);
    assertThat(drain(target, 100)).containsExactly(timers[1], timers[0]);
  }

  @Test
  void readsVersionTwoSnapshots() {
    Svc source = service(ALL);
    List<Timer> timers = new ArrayList<>();
    for (long k = 0; k < 100; k++) {
      Timer t = new Timer(Key.of(k), k % 2 == 0 ? "w" : null, 1_000 - 10 * k);
      timers.add(t);
      register(source, t.key(), t.namespace(), t.time());
    }
    source.advanceWatermark(-5);
    byte[] old = asVersion2(source.snapshot(codec));
    KeyGroupRange half = new KeyGroupRange(M / 2, M);
    Svc target = service(half);
    target.restore(old, codec, half, M);
    assertThat(target.currentWatermark()).isEqualTo(-5);
    assertThat(drain(target, Long.MAX_VALUE)).containsExactlyElementsOf(timers.stream()
        .filter(t -> half.contains(t.key().keyGroup(M))).sorted(Comparator.comparingLong(Timer::time))
        .toList());
  }

  @Test
  void refusesOtherKeyGroupCountsAndCorruptData() {
    Svc source = service(ALL);
    register(source, Key.of(1L), "w", 1);
    byte[] bytes = source.snapshot(codec);
    assertThatThrownBy(() -> service(ALL).restore(bytes, codec, ALL, 2 * M))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("key groups");
    byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 1);
    assertThatThrownBy(() -> service(ALL).restore(truncated, codec, ALL, M)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> service(ALL).restore(new byte[] {1, 2, 3}, codec, ALL, M))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void restoresTheKeyGroupsOfARangeFromSeveralSnapshots() {
    List<Timer> all = new ArrayList<>();
    List<byte[]> snapshots = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      KeyGroupRange range = KeyGroups.rangeFor(M, 3, i);
      Svc old = service(range);
      for (long k = 0; k < 200; k++) {
        Key key = Key.of(k);
        if (range.contains(key.keyGroup(M))) {
          register(old, key, "w", k % 7);
          all.add(new Timer(key, "w", k % 7));
        }
      }
      old.advanceWatermark(-10 + i);
      snapshots.add(old.snapshot(codec));
    }
    Set<Timer> restored = new HashSet<>();
    for (int j = 0; j < 2; j++) {
      KeyGroupRange range = KeyGroups.rangeFor(M, 2, j);
      Svc target = service(range);
      for (byte[] s : snapshots) {
        target.restore(s, codec, range, M);
      }
      assertThat(target.currentWatermark()).isEqualTo(-10);
      for (Timer t : drain(target, Long.MAX_VALUE)) {
        assertThat(range.contains(t.key().keyGroup(M))).isTrue();
        assertThat(restored.add(t)).isTrue();
      }
    }
    assertThat(restored).containsExactlyInAnyOrderElementsOf(all);
  }

  /**
   * {@code v3}, a version 3 snapshot, as version 2 wrote it: the same but for the version and the
   * earliest times in the index.
   */
  static byte[] asVersion2(byte[] v3) {
    int header = TimerSnapshotFormat.HEADER;
    assertThat(v3[4]).isEqualTo(TimerSnapshotFormat.V3);
    int sections = ByteBuffer.wrap(v3).getInt(header - 4);
    ByteBuffer v2 = ByteBuffer.allocate(v3.length - sections * Long.BYTES);
    v2.put(v3, 0, header).put(4, TimerSnapshotFormat.V2);
    for (int i = 0; i < sections; i++) {
      v2.put(v3, header + i * 20, 12); // key group, timers, length; without the earliest time
    }
    int body = header + sections * 20;
    return v2.put(v3, body, v3.length - body).array();
  }

  private Svc restored(List<Timer> timers) {
    Svc source = service(ALL);
    for (Timer t : timers) {
      register(source, t.key(), t.namespace(), t.time());
    }
    Svc target = service(ALL);
    target.restore(source.snapshot(codec), codec, ALL, M);
    return target;
  }

  private static Svc service(KeyGroupRange range) {
    return new Svc(range);
  }

  private static void register(Svc timers, Key key, Object namespace, long time) {
    timers.register(key, namespace, time);
  }

  private static List<Timer> drain(Svc timers, long watermark) {
    List<Timer> fired = new ArrayList<>();
    for (Timer t; (t = timers.pollDue(watermark)) != null; ) {
      fired.add(t);
    }
    return fired;
  }

  /** A timer service with its state backend, for timers of any key. */
  static final class Svc {
    final HeapKeyedStateBackend backend;
    final HeapTimerService timers;

    Svc(KeyGroupRange range) {
      backend = new HeapKeyedStateBackend(range, M);
      timers = new HeapTimerService(backend);
    }

    void register(Key key, Object namespace, long time) {
      backend.setCurrentKey(key);
      timers.register(namespace, time);
    }

    void delete(Key key, Object namespace, long time) {
      backend.setCurrentKey(key);
      timers.delete(namespace, time);
    }

    Timer pollDue(long watermark) {
      return timers.pollDue(watermark);
    }

    long nextTimerTime() {
      return timers.nextTimerTime();
    }

    int size() {
      return timers.size();
    }

    long currentWatermark() {
      return timers.currentWatermark();
    }

    void advanceWatermark(long watermark) {
      timers.advanceWatermark(watermark);
    }

    byte[] snapshot(StateCodec<String> codec) {
      return timers.snapshot(codec);
    }

    void restore(byte[] data, StateCodec<String> codec, KeyGroupRange range, int maxParallelism) {
      timers.restore(data, codec, range, maxParallelism);
    }

    void restore(TimerSnapshotSource source, StateCodec<String> codec, KeyGroupRange range, int maxParallelism) {
      timers.restore(source, codec, range, maxParallelism);
    }
  }
}
