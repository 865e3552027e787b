package io.tributary.worker.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.timer.CountingSource.Range;
import io.tributary.worker.timer.LazyTimerRestoreTest.CountingCodec;
import io.tributary.worker.timer.LazyTimerRestoreTest.Svc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Restore from a {@link TimerSnapshotSource}: header and index read up front, each section with
 * one ranged read when its earliest timer is needed, shared with the snapshots taken meanwhile.
 */
class RangedTimerRestoreTest {
  private static final int M = 16;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, M);
  private static final int HEADER = TimerSnapshotFormat.HEADER;

  private final CountingCodec codec = new CountingCodec();

  /** One section of a version 3 snapshot, as its index lists it. */
  private record Section(int keyGroup, long earliest, Range range) {}

  @Test
  void restoreReadsTheHeaderAndIndexOnly() {
    List<Timer> timers = timers(500, k -> 100L * Key.of(k).keyGroup(M) + k % 7);
    byte[] bytes = snapshot(timers);
    List<Section> sections = index(bytes);
    CountingSource source = new CountingSource(bytes);
    Svc target = new Svc(ALL);
    target.restore(source, codec, ALL, M);
    assertThat(source.ranges).containsExactly(new Range(0, HEADER), new Range(HEADER, 20 * sections.size()));

    assertThat(target.nextTimerTime()).isEqualTo(earliest(timers));
    assertThat(target.size()).isEqualTo(timers.size());
    assertThat(source.ranges).hasSize(2);
    assertThat(source.wholeReads).hasValue(0);
    assertThat(codec.reads).hasValue(0);
  }

  @Test
  void aSectionIsReadWhenItsEarliestTimerIsDue() {
    List<Timer> timers = timers(500, k -> 100L * Key.of(k).keyGroup(M) + k % 7);
    byte[] bytes = snapshot(timers);
    CountingSource source = new CountingSource(bytes);
    Svc target = new Svc(ALL);
    target.restore(source, codec, ALL, M);

    long watermark = 100L * 5 + 50; // the sections of key groups 0 to 5 are due, and exhausted
    assertThat(drain(target, watermark))
        .containsExactlyInAnyOrderElementsOf(timers.stream().filter(t -> t.time() <= watermark).toList());
    assertThat(target.pollDue(watermark)).isNull();
    assertThat(sectionsRead(source, bytes)).containsExactlyInAnyOrderElementsOf(index(bytes).stream()
        .filter(s -> s.earliest() <= watermark).map(Section::keyGroup).toList());
    assertThat(target.nextTimerTime()).isEqualTo(timers.stream()
        .filter(t -> t.time() > watermark).mapToLong(Timer::time).min().orElseThrow());
    assertThat(target.size()).isEqualTo((int) timers.stream().filter(t -> t.time() > watermark).count());

    drain(target, Long.MAX_VALUE);
    assertThat(source.ranges).hasSize(2 + index(bytes).size()).doesNotHaveDuplicates();
  }

  @Test
  void aLiveTimerBeforeAnUnreadSectionFiresWithoutReadingIt() {
    byte[] bytes = snapshot(timers(50, k -> 1_000 + k));
    CountingSource source = new CountingSource(bytes);
    Svc target = new Svc(ALL);
    target.restore(source, codec, ALL, M);
    target.register(Key.of(99L), "w", 10);
    assertThat(target.pollDue(999)).isEqualTo(new Timer(Key.of(99L), "w", 10));
    assertThat(target.pollDue(999)).isNull();
    assertThat(source.ranges).hasSize(2);
  }

  @Test
  void aSnapshotRightAfterTheRestoreReadsEachSectionOnceForBoth() {
    List<Timer> timers = timers(400, k -> 10 * k);
    byte[] bytes = snapshot(timers);
    CountingSource source = new CountingSource(bytes);
    Svc target = new Svc(ALL);
    target.restore(source, codec, ALL, M);

    Supplier<byte[]> later = target.timers.snapshotLater(codec);
    assertThat(source.ranges).as("the task thread's part reads nothing").hasSize(2);
    byte[] again = later.get();
    assertThat(sectionsRead(source, bytes)).hasSameSizeAs(index(bytes)).doesNotHaveDuplicates();

    List<Timer> inTimeOrder = timers.stream().sorted(Comparator.comparingLong(Timer::time)).toList();
    Svc copy = new Svc(ALL);
    copy.restore(new CountingSource(again), codec, ALL, M);
    assertThat(drain(copy, Long.MAX_VALUE)).containsExactlyElementsOf(inTimeOrder);
    assertThat(drain(target, Long.MAX_VALUE)).containsExactlyElementsOf(inTimeOrder);
    assertThat(source.ranges).as("the task's cursors use what the snapshot read").hasSize(2 + index(bytes).size());
  }

  @Test
  void aSnapshotOnAnotherThreadAndTheTaskShareTheReads() {
    List<Timer> timers = timers(2_000, k -> k % 300);
    byte[] bytes = snapshot(timers);
    CountingSource source = new CountingSource(bytes);
    Svc target = new Svc(ALL);
    target.restore(source, codec, ALL, M);

    CompletableFuture<byte[]> later = CompletableFuture.supplyAsync(target.timers.snapshotLater(codec));
    List<Timer> fired = drain(target, Long.MAX_VALUE);
    byte[] again = later.join();
    assertThat(fired).containsExactlyInAnyOrderElementsOf(timers);
    assertThat(source.ranges).hasSize(2 + index(bytes).size()).doesNotHaveDuplicates();
    Svc copy = new Svc(ALL);
    copy.restore(again, codec, ALL, M);
    assertThat(drain(copy, Long.MAX_VALUE)).containsExactlyInAnyOrderElementsOf(timers);
  }

  @Test
  void aFailedReadNamesTheObjectAndKeyGroupAndIsTriedAgain() {
    List<Timer> timers = timers(200, k -> 100L * Key.of(k).keyGroup(M));
    byte[] bytes = snapshot(timers);
    CountingSource source = new CountingSource(bytes);
    Svc target = new Svc(ALL);
    target.restore(source, codec, ALL, M);
    int first = index(bytes).get(0).keyGroup();

    source.failure = new IOException("connection reset");
    String message = "cannot read timers jobs/j/timers/window-0 (key group " + first + "): connection reset";
    assertThatThrownBy(() -> target.pollDue(Long.MAX_VALUE))
        .isInstanceOf(UncheckedIOException.class).hasMessage(message);
    Supplier<byte[]> later = target.timers.snapshotLater(codec);
    assertThatThrownBy(later::get).isInstanceOf(UncheckedIOException.class).hasMessage(message);

    source.failure = null;
    assertThat(drain(target, Long.MAX_VALUE)).containsExactlyInAnyOrderElementsOf(timers);
  }

  @Test
  void aRestoreFailsAtOnceWhenTheHeaderOrIndexCannotBeRead() {
    byte[] bytes = snapshot(timers(20, k -> k));
    CountingSource failing = new CountingSource(bytes);
    failing.failure = new IOException("access denied");
    assertThatThrownBy(() -> new Svc(ALL).restore(failing, codec, ALL, M))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot restore timers jobs/j/timers/window-0: access denied");

    byte[] truncatedIndex = Arrays.copyOf(bytes, HEADER + 10);
    assertThatThrownBy(() -> new Svc(ALL).restore(new CountingSource(truncatedIndex), codec, ALL, M))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("jobs/j/timers/window-0");
    assertThatThrownBy(() -> new Svc(ALL).restore(new CountingSource(bytes), codec, ALL, 2 * M))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("key groups");
  }

  @Test
  void anIndexWhoseEarliestTimeIsWrongIsCaughtWhenTheSectionIsRead() {
    byte[] bytes = snapshot(timers(20, k -> 50));
    ByteBuffer.wrap(bytes).putLong(HEADER + 12, 40); // the first section's earliest time
    Svc target = new Svc(ALL);
    target.restore(new CountingSource(bytes), codec, ALL, M);
    assertThat(target.nextTimerTime()).isEqualTo(40);
    assertThatThrownBy(() -> target.pollDue(40))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("the index says 40");
  }

  @Test
  void olderVersionsAreReadWhole() {
    List<Timer> timers = timers(100, k -> 7 * k);
    List<Timer> inTimeOrder = timers.stream().sorted(Comparator.comparingLong(Timer::time)).toList();
    CountingSource v2 = new CountingSource(LazyTimerRestoreTest.asVersion2(snapshot(timers)));
    Svc fromV2 = new Svc(ALL);
    fromV2.restore(v2, codec, ALL, M);
    assertThat(v2.ranges).containsExactly(new Range(0, HEADER));
    assertThat(v2.wholeReads).hasValue(1);
    assertThat(drain(fromV2, Long.MAX_VALUE)).containsExactlyElementsOf(inTimeOrder);

    CountingSource v1 = new CountingSource(TimerSnapshotFormat.writeV1(3, timers.toArray(new Timer[0]), codec));
    Svc fromV1 = new Svc(ALL);
    fromV1.restore(v1, codec, ALL, M);
    assertThat(v1.wholeReads).hasValue(1);
    assertThat(fromV1.currentWatermark()).isEqualTo(3);
    assertThat(drain(fromV1, Long.MAX_VALUE)).containsExactlyElementsOf(inTimeOrder);

    // shorter than a version 3 header
    CountingSource empty = new CountingSource(TimerSnapshotFormat.writeV1(8, new Timer[0], codec));
    Svc fromEmpty = new Svc(ALL);
    fromEmpty.restore(empty, codec, ALL, M);
    assertThat(fromEmpty.currentWatermark()).isEqualTo(8);
    assertThat(fromEmpty.size()).isZero();
  }

  /** Timers of keys {@code 0..n-1}, namespace "w", at {@code time(key)}. */
  private static List<Timer> timers(int n, LongUnaryOperator time) {
    List<Timer> timers = new ArrayList<>();
    for (long k = 0; k < n; k++) {
      timers.add(new Timer(Key.of(k), "w", time.applyAsLong(k)));
    }
    return timers;
  }

  private byte[] snapshot(List<Timer> timers) {
    Svc source = new Svc(ALL);
    for (Timer t : timers) {
      source.register(t.key(), t.namespace(), t.time());
    }
    byte[] bytes = source.snapshot(codec);
    codec.reads.set(0);
    return bytes;
  }

  /** The sections of a version 3 snapshot, in index order. */
  private static List<Section> index(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    assertThat(in.get(4)).isEqualTo(TimerSnapshotFormat.V3);
    int count = in.getInt(HEADER - 4);
    List<Section> sections = new ArrayList<>();
    long offset = HEADER + 20L * count;
    for (int i = 0; i < count; i++) {
      int at = HEADER + 20 * i;
      int length = in.getInt(at + 8);
      sections.add(new Section(in.getInt(at), in.getLong(at + 12), new Range(offset, length)));
      offset += length;
    }
    return sections;
  }

  /** The key group of each section {@code source} read, in the order read. */
  private static List<Integer> sectionsRead(CountingSource source, byte[] bytes) {
    Map<Range, Integer> keyGroups = index(bytes).stream().collect(Collectors.toMap(Section::range, Section::keyGroup));
    return source.ranges.stream().filter(keyGroups::containsKey).map(keyGroups::get).toList();
  }

  private static long earliest(List<Timer> timers) {
    return timers.stream().mapToLong(Timer::time).min().orElseThrow();
  }

  private static List<Timer> drain(Svc timers, long watermark) {
    List<Timer> fired = new ArrayList<>();
    for (Timer t; (t = timers.pollDue(watermark)) != null; ) {
      fired.add(t);
    }
    return fired;
  }
}
