package io.tributary.worker.timer;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.state.TimerQueue;
import io.tributary.worker.operator.Timer;
import java.io.IOException;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The event-time timers of one keyed operator instance, kept by its state backend ({@link
 * TimerQueue}, the forst backend's shards): they snapshot, restore (lazily, per key group) and
 * rescale with the keyed state, and only the earliest few of each key group are on the heap. The
 * semantics are {@link HeapTimerService}'s: dedup per (key, namespace, time), firing by time, the
 * watermark as the task drives it ({@link TaskTimers}).
 *
 * <p>The checkpoint's timers object holds only the watermark (version 3 of {@link
 * TimerSnapshotFormat} with no timer). A snapshot of heap timers (a checkpoint taken before the
 * backend kept timers) is restored by adding its timers to the backend, all of them at once.
 *
 * <p>{@link #size()} lists every timer in the backend: for tests and tools, not for a record's path.
 * Used by the task thread only; the suppliers of {@link #snapshotLater} run on any thread.
 */
public final class StateTimerService implements TaskTimers {
  private final KeyedStateBackend backend;
  private final TimerQueue<Object> queue;
  private long watermark = Long.MIN_VALUE;
  /** Whether timers were registered, deleted or polled, or the watermark moved: restore is too late. */
  private boolean used;
  private boolean restored;

  /** Timers scoped to {@code backend}'s current key, kept in {@code queue}, one of the backend's. */
  public StateTimerService(KeyedStateBackend backend, TimerQueue<Object> queue) {
    this.backend = backend;
    this.queue = queue;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException when the backend has no current key
   */
  @Override
  public void register(Object namespace, long time) {
    used = true;
    queue.add(requireKey(), namespace, time);
  }

  @Override
  public void delete(Object namespace, long time) {
    used = true;
    queue.remove(requireKey(), namespace, time);
  }

  @Override
  public long currentWatermark() {
    return watermark;
  }

  @Override
  public Timer pollDue(long wm) {
    moveWatermark(wm);
    TimerQueue.Entry<Object> e = queue.poll(wm);
    if (e == null) {
      return null;
    }
    backend.setCurrentKey(e.key());
    return new Timer(e.key(), e.namespace(), e.time());
  }

  @Override
  public void advanceWatermark(long wm) {
    moveWatermark(wm);
  }

  @Override
  public long nextTimerTime() {
    return queue.peekTime();
  }

  /** {@inheritDoc} Exact; lists every timer in the backend. */
  @Override
  public int size() {
    return (int) Math.min(Integer.MAX_VALUE, queue.size());
  }

  /** {@inheritDoc} Only the watermark: the timers are in the backend's snapshot. */
  @Override
  public <N> Supplier<byte[]> snapshotLater(StateCodec<N> namespaceCodec) {
    long wm = watermark;
    int maxParallelism = backend.maxParallelism();
    return () -> TimerSnapshotFormat.write(wm, maxParallelism, new Timer[0], new TimerSection[0], Set.of(),
        namespaceCodec);
  }

  @Override
  public <N> void restore(byte[] data, StateCodec<N> namespaceCodec, KeyGroupRange range, int maxParallelism) {
    restore("cannot restore timers: ", () -> TimerSnapshotFormat.read(data, namespaceCodec, range, maxParallelism));
  }

  @Override
  public <N> void restore(TimerSnapshotSource source, StateCodec<N> namespaceCodec, KeyGroupRange range,
      int maxParallelism) {
    restore("cannot restore timers " + source.name() + ": ",
        () -> TimerSnapshotFormat.read(source, namespaceCodec, range, maxParallelism));
  }

  /** Reads a snapshot's restored part. */
  private interface Reader {
    TimerSnapshotFormat.Restored read() throws IOException;
  }

  private void restore(String failure, Reader reader) {
    if (used) {
      throw new IllegalStateException("timers can only be restored into a fresh timer service");
    }
    try {
      TimerSnapshotFormat.Restored r = reader.read();
      watermark = restored ? Math.min(watermark, r.watermark()) : r.watermark();
      restored = true;
      for (Timer t : r.timers()) {
        queue.add(t.key(), t.namespace(), t.time());
      }
      for (TimerSection s : r.sections()) {
        for (Timer t; (t = s.head()) != null; s.advance()) {
          queue.add(t.key(), t.namespace(), t.time());
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(failure + e.getMessage(), e);
    }
  }

  private void moveWatermark(long wm) {
    used = true;
    if (wm < watermark) {
      throw new IllegalArgumentException("watermark went back from " + watermark + " to " + wm);
    }
    watermark = wm;
  }

  private Key requireKey() {
    Key key = backend.currentKey();
    if (key == null) {
      throw new IllegalStateException("timers need a current key: set it on the state backend first");
    }
    return key;
  }
}
