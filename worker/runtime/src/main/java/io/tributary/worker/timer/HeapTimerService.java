package io.tributary.worker.timer;

import io.tributary.state.Key;
import io.tributary.state.KeyGroupRange;
import io.tributary.state.KeyedStateBackend;
import io.tributary.state.StateCodec;
import io.tributary.worker.operator.Timer;
import io.tributary.worker.operator.TimerService;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Supplier;

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
  public <N> byte[] snapshot(StateCodec<N> namespaceCodec) {
    return snapshotLater(namespaceCodec).get();
  }

  /**
   * The live timers and the current watermark as they are now, serialized later by the supplier
   * on any thread (as {@link #snapshot}): only the timer references are copied here, so a
   * checkpoint's synchronous part on the task thread stays short however many timers there are.
   * Timers are immutable; the codec must be usable from another thread.
   */
  @SuppressWarnings("unchecked")
  public <N> Supplier<byte[]> snapshotLater(StateCodec<N> namespaceCodec) {
    Timer[] timers = live.toArray(new Timer[0]);
    long wm = watermark;
    return () -> {
      Bytes bytes = new Bytes(64 + timers.length * 48);
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeInt(MAGIC);
        out.writeByte(VERSION);
        out.writeLong(wm);
        out.writeInt(timers.length);
        for (Timer t : timers) {
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
    };
  }

  /** An unsynchronized byte sink (ByteArrayOutputStream locks on every write). */
  private static final class Bytes extends OutputStream {
    private byte[] buf;
    private int size;

    Bytes(int capacity) {
      buf = new byte[capacity];
    }

    @Override
    public void write(int b) {
      ensure(1);
      buf[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, buf, size, len);
      size += len;
    }

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buf, size);
    }
  }

  /** An unsynchronized reader of a byte array (ByteArrayInputStream locks on every read). */
  private static final class BytesIn extends InputStream {
    private final byte[] buf;
    private int pos;

    BytesIn(byte[] buf) {
      this.buf = buf;
    }

    @Override
    public int read() {
      return pos < buf.length ? buf[pos++] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (pos >= buf.length) {
        return len == 0 ? 0 : -1;
      }
      int n = Math.min(len, buf.length - pos);
      System.arraycopy(buf, pos, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public int available() {
      return buf.length - pos;
    }
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
    try (DataInputStream in = new DataInputStream(new BytesIn(data))) {
      if (in.readInt() != MAGIC || in.readByte() != VERSION) {
        throw new IOException("not a timer snapshot (or an unsupported version)");
      }
      long snapshotWatermark = in.readLong();
      watermark = restored ? Math.min(watermark, snapshotWatermark) : snapshotWatermark;
      restored = true;
      int n = in.readInt();
      List<Timer> mine = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        byte[] keyBytes = new byte[in.readInt()];
        in.readFully(keyBytes);
        long time = in.readLong();
        Object namespace = in.readBoolean() ? namespaceCodec.read(in) : null;
        Key key = Key.fromBytes(keyBytes);
        if (range.contains(key.keyGroup(maxParallelism))) {
          mine.add(new Timer(key, namespace, time));
        }
      }
      // in time order, each insertion into the heap is O(1)
      mine.sort(BY_TIME);
      for (Timer timer : mine) {
        if (live.add(timer)) {
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
