package io.tributary.worker.timer;

import io.tributary.state.Key;
import io.tributary.state.KeyedStateBackend;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.operator.TimerService;
import java.util.Comparator;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The event-time timers of one keyed operator instance, on the heap: a priority queue ordered by
 * time, deduplicated per (key, namespace, time) by a hash set of the live timers.
 *
 * <p>Deletion is lazy: a deleted timer leaves the set at once and its queue entry is skipped when
 * it reaches the head. Timers with the same time fire in no particular order.
 *
 * <p>The runtime task drives it: for a new watermark {@code w} it calls {@link #pollDue(long)}
 * until it returns null (firing each timer through {@code Operator.onTimer}, and free to stop
 * between two timers while downstream is backpressured), then {@link #advanceWatermark(long)}
 * and {@code Operator.onWatermark}. As in Flink, {@link #currentWatermark()} already reads
 * {@code w} while the timers due at {@code w} fire, so records handled between two timers see
 * the new watermark too.
 *
 * <p>Snapshots (with the checkpoint issue) will write the live timers grouped by their key's key
 * group, next to the keyed state. Used by the task thread only.
 */
public final class HeapTimerService implements TimerService {
  private static final Comparator<Timer> BY_TIME = Comparator.comparingLong(Timer::time);

  private final KeyedStateBackend backend;
  private final PriorityQueue<Timer> queue = new PriorityQueue<>(BY_TIME);
  private final Set<Timer> live = new HashSet<>();
  private long watermark = Long.MIN_VALUE;

  /** Timers scoped to {@code backend}'s current key. */
  public HeapTimerService(KeyedStateBackend backend) {
    this.backend = backend;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException when the backend has no current key
   */
  @Override
  public void register(Object namespace, long time) {
    Timer timer = new Timer(requireKey(), namespace, time);
    if (live.add(timer)) {
      queue.add(timer);
    }
  }

  @Override
  public void delete(Object namespace, long time) {
    live.remove(new Timer(requireKey(), namespace, time));
  }

  @Override
  public long currentWatermark() {
    return watermark;
  }

  /**
   * Removes and returns the earliest timer due at {@code watermark} (time {@code <= watermark}),
   * with the backend's current key set to the timer's key; null when none is due. Moves
   * {@link #currentWatermark()} to {@code watermark}.
   *
   * @throws IllegalArgumentException when {@code watermark} is below the current watermark
   */
  public Timer pollDue(long watermark) {
    moveWatermark(watermark);
    Timer head = liveHead();
    if (head == null || head.time() > watermark) {
      return null;
    }
    queue.poll();
    live.remove(head);
    backend.setCurrentKey(head.key());
    return head;
  }

  /**
   * Sets {@link #currentWatermark()}; called after the due timers fired.
   *
   * @throws IllegalArgumentException when {@code watermark} is below the current watermark
   */
  public void advanceWatermark(long watermark) {
    moveWatermark(watermark);
  }

  /** Number of live timers. */
  public int size() {
    return live.size();
  }

  /** Time of the earliest live timer, {@code Long.MAX_VALUE} when there is none. */
  public long nextTimerTime() {
    Timer head = liveHead();
    return head == null ? Long.MAX_VALUE : head.time();
  }

  private Timer liveHead() {
    Timer head = queue.peek();
    while (head != null && !live.contains(head)) {
      queue.poll();
      head = queue.peek();
    }
    return head;
  }

  private void moveWatermark(long wm) {
    if (wm < watermark) {
      throw new IllegalArgumentException(
          "watermark went back from " + watermark + " to " + wm);
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
