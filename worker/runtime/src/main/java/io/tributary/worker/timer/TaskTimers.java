package io.tributary.worker.timer;

import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.state.TimerQueue;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.operator.TimerService;
import java.util.function.Supplier;

/**
 * The event-time timers of one keyed operator instance as the runtime task drives them: for a new
 * watermark {@code w} it calls {@link #pollDue(long)} until it returns null (firing each timer
 * through {@code Operator.onTimer}, and free to stop between two timers while downstream is
 * backpressured), then {@link #advanceWatermark(long)} and {@code Operator.onWatermark}. As in
 * Flink, {@link #currentWatermark()} already reads {@code w} while the timers due at {@code w}
 * fire. Used by the task thread only; the suppliers of {@link #snapshotLater} run on any thread.
 *
 * <p>Two implementations with the same semantics: {@link HeapTimerService} keeps the timers on
 * the heap and snapshots them itself; {@link StateTimerService} keeps them in the state backend
 * (forst), which snapshots them with the state. {@link #of} picks the one the backend allows.
 */
public interface TaskTimers extends TimerService {
  /**
   * The timers of an operator whose state is {@code backend}: in the backend when it keeps timers
   * ({@link KeyedStateBackend#timerQueue}), else on the heap.
   *
   * @param namespaceCodec encodes the namespaces the operator registers timers with
   */
  @SuppressWarnings("unchecked")
  static TaskTimers of(KeyedStateBackend backend, StateCodec<?> namespaceCodec) {
    TimerQueue<Object> queue = backend.timerQueue("timers", (StateCodec<Object>) namespaceCodec);
    return queue == null ? new HeapTimerService(backend) : new StateTimerService(backend, queue);
  }

  /**
   * Removes and returns the earliest timer due at {@code watermark} (time {@code <= watermark}),
   * with the backend's current key set to the timer's key; null when none is due. Moves
   * {@link #currentWatermark()} to {@code watermark}. Timers with the same time fire in no
   * particular order.
   *
   * @throws IllegalArgumentException when {@code watermark} is below the current watermark
   */
  Timer pollDue(long watermark);

  /**
   * Sets {@link #currentWatermark()}; called after the due timers fired.
   *
   * @throws IllegalArgumentException when {@code watermark} is below the current watermark
   */
  void advanceWatermark(long watermark);

  /** Time of the earliest live timer, {@code Long.MAX_VALUE} when there is none. */
  long nextTimerTime();

  /** Number of live timers (see the implementations for its cost and precision). */
  int size();

  /** What {@link #snapshotLater} supplies, now. */
  default <N> byte[] snapshot(StateCodec<N> namespaceCodec) {
    return snapshotLater(namespaceCodec).get();
  }

  /**
   * The part of the timers the task writes to the checkpoint's timers object ({@link
   * TimerSnapshotFormat}), as it is now, serialized later by the supplier on any thread.
   */
  <N> Supplier<byte[]> snapshotLater(StateCodec<N> namespaceCodec);

  /**
   * Restores from {@code data} (written by {@link #snapshot}) what belongs to key groups {@code
   * range}; once per snapshot when rescaling, the watermark becoming the lowest among them.
   *
   * @throws IllegalStateException when the service was already used, or {@code data} is corrupt
   */
  <N> void restore(byte[] data, StateCodec<N> namespaceCodec, KeyGroupRange range, int maxParallelism);

  /** As {@link #restore(byte[], StateCodec, KeyGroupRange, int)}, reading from {@code source}. */
  <N> void restore(TimerSnapshotSource source, StateCodec<N> namespaceCodec, KeyGroupRange range,
      int maxParallelism);
}
