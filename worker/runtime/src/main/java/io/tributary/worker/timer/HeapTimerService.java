package io.tributary.worker.timer;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.operator.TimerService;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * <p>{@link #snapshot} serializes the live timers and the watermark; {@link #restore} reads them
 * back into a fresh service, keeping the timers of the key groups it owns, so a snapshot taken at
 * one parallelism restores at another. Used by the task thread only.
 */
public final class HeapTimerService implements TimerService {
  private static final Comparator<Timer> BY_TIME = Comparator.comparingLong(Timer::time);
  private static final int MAGIC = 0x5448544D;
  private static final byte VERSION = 1;

  private final KeyedStateBackend backend;
  private final PriorityQueue<Timer> queue = new PriorityQueue<>(BY_TIME);
  private final Set<Timer> live = new HashSet<>();
  private long watermark = Long.MIN_VALUE;
  /** Whether timers were registered, deleted or polled, or the watermark moved: restore is too late. */
  private boolean used;
  private boolean restored;

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
    used = true;
    if (live.add(timer)) {
      queue.add(timer);
    }
  }

  @Override
  public void delete(Object namespace, long time) {
    used = true;
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
    used = true;
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

  /**
   * The live timers and the current watermark, serialized (on the calling thread: the service may
   * change as soon as this returns). Layout: magic {@code "THTM"}, version byte 1, the watermark,
   * the number of timers, then per timer its key's serialized form (int length, bytes), its time,
   * and its namespace (a presence byte, then {@code namespaceCodec}'s form).
   *
   * @param namespaceCodec encodes the namespaces the operator registers timers with
   * @throws ClassCastException when a namespace is not of the codec's type
   */
  @SuppressWarnings("unchecked")
  public <N> byte[] snapshot(StateCodec<N> namespaceCodec) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeByte(VERSION);
      out.writeLong(watermark);
      out.writeInt(live.size());
      for (Timer t : live) {
        byte[] key = t.key().bytes();
        out.writeInt(key.length);
        out.write(key);
        out.writeLong(t.time());
        out.writeBoolean(t.namespace() != null);
        if (t.namespace() != null) {
          namespaceCodec.write((N) t.namespace(), out);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize timers", e);
    }
    return bytes.toByteArray();
  }

  /**
   * Adds the timers of {@code data} (written by {@link #snapshot}) whose key belongs to a key group
   * of {@code range} among {@code maxParallelism}. When rescaling, call it once per snapshot that
   * may hold such timers; the watermark becomes the lowest among the restored snapshots (timers
   * above it have not fired in any of them).
   *
   * @throws IllegalStateException when the service was already used (timers registered, deleted
   *     or polled, or the watermark moved), or {@code data} is corrupt
   */
  public <N> void restore(byte[] data, StateCodec<N> namespaceCodec, KeyGroupRange range, int maxParallelism) {
    if (used) {
      throw new IllegalStateException("timers can only be restored into a fresh timer service");
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
      if (in.readInt() != MAGIC || in.readByte() != VERSION) {
        throw new IOException("not a timer snapshot (or an unsupported version)");
      }
      long snapshotWatermark = in.readLong();
      watermark = restored ? Math.min(watermark, snapshotWatermark) : snapshotWatermark;
      restored = true;
      for (int i = 0, n = in.readInt(); i < n; i++) {
        byte[] keyBytes = new byte[in.readInt()];
        in.readFully(keyBytes);
        long time = in.readLong();
        Object namespace = in.readBoolean() ? namespaceCodec.read(in) : null;
        Key key = Key.fromBytes(keyBytes);
        Timer timer = new Timer(key, namespace, time);
        if (range.contains(key.keyGroup(maxParallelism)) && live.add(timer)) {
          queue.add(timer);
        }
      }
      if (in.available() != 0) {
        throw new IOException(in.available() + " trailing bytes: does the namespace codec match?");
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("cannot restore timers: " + e.getMessage(), e);
    }
  }
}
